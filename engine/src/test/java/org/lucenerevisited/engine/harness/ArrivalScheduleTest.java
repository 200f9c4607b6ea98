package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class ArrivalScheduleTest {

  private static long[] offsets(double rate, long seed, int n) {
    ArrivalSchedule s = new ArrivalSchedule(rate, seed);
    long[] out = new long[n];
    for (int i = 0; i < n; i++) {
      out[i] = s.next();
    }
    return out;
  }

  @Test
  void aSeedFixesTheSchedule() {
    assertArrayEquals(offsets(500, 42, 1_000), offsets(500, 42, 1_000));
    assertFalse(Arrays.equals(offsets(500, 42, 1_000), offsets(500, 43, 1_000)));
  }

  @Test
  void gapsAreExponentialWithMeanOneOverRate() {
    int n = 100_000;
    double rate = 1_000;
    long[] t = offsets(rate, 7, n);
    double sum = 0;
    double sumSq = 0;
    long previous = 0;
    for (long offset : t) {
      long gap = offset - previous;
      assertTrue(gap >= 0, "offsets never decrease");
      sum += gap;
      sumSq += (double) gap * gap;
      previous = offset;
    }
    double mean = sum / n;
    double sd = Math.sqrt(sumSq / n - mean * mean);
    // Standard errors at 100K gaps: 0.3% for the mean, 0.5% for the spread; 3% is far outside.
    assertEquals(1e9 / rate, mean, 0.03 * 1e9 / rate);
    assertEquals(1.0, sd / mean, 0.03, "an exponential's spread equals its mean");
  }

  @Test
  void rejectsANonPositiveRate() {
    for (double bad : new double[] {0, -1, Double.NaN, Double.POSITIVE_INFINITY}) {
      IllegalArgumentException e =
          assertThrows(IllegalArgumentException.class, () -> new ArrivalSchedule(bad, 1));
      assertTrue(e.getMessage().contains("rate"), e.getMessage());
    }
  }
}
