package org.lucenerevisited.dvupdate;

import java.util.List;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;
import org.lucenerevisited.engine.harness.Table;

/**
 * The latency distributions of one combination after its warm-up, in nanoseconds, to 3 significant
 * digits: each update call, each update's lag behind its due time, each reopen, each query.
 */
final class Latencies {

  static final List<String> METRICS = List.of("update_ns", "lag_ns", "reopen_ns", "query_ns");

  final int combo;
  final int rate;
  final int intervalMillis;
  final Histogram update = new ConcurrentHistogram(3);
  final Histogram lag = new ConcurrentHistogram(3);
  final Histogram reopen = new ConcurrentHistogram(3);
  final Histogram query = new ConcurrentHistogram(3);

  Latencies(int combo, int rate, int intervalMillis) {
    this.combo = combo;
    this.rate = rate;
    this.intervalMillis = intervalMillis;
  }

  static Table.Builder columns() {
    return Table.builder().longColumn("combo").longColumn("rate").longColumn("interval_ms").stringColumn("metric")
        .longColumn("count").doubleColumn("mean_ns").longColumn("p50_ns").longColumn("p90_ns").longColumn("p99_ns")
        .longColumn("max_ns");
  }

  /** One row per metric; an empty one has count 0 and a NaN mean. */
  void addRows(Table.Builder out) {
    List<Histogram> all = List.of(update, lag, reopen, query);
    for (int m = 0; m < all.size(); m++) {
      Histogram h = all.get(m);
      long count = h.getTotalCount();
      out.addRow((long) combo, (long) rate, (long) intervalMillis, METRICS.get(m), count,
          count == 0 ? Double.NaN : h.getMean(), h.getValueAtPercentile(50), h.getValueAtPercentile(90),
          h.getValueAtPercentile(99), h.getMaxValue());
    }
  }
}
