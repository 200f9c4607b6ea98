import java.util.Random;

/**
 * How this host's speed drifts over seconds: the experiment behind docs/noise.md's lockstep section.
 *
 * <pre>java docs/noise/HostDrift.java 512 300</pre>
 *
 * prints, per iteration of 0.2 s each, the ns per step of a pointer chase through a random cycle of
 * the given MB (memory-bound) and the ns per step of a multiply-add loop in registers (CPU-bound).
 */
public class HostDrift {
  static long sink;

  public static void main(String[] args) {
    int n = Integer.parseInt(args[0]) * 1024 * 1024 / 4;
    int iterations = Integer.parseInt(args[1]);
    int[] next = new int[n];
    int[] perm = new int[n];
    Random random = new Random(42);
    for (int i = 0; i < n; i++) {
      perm[i] = i;
    }
    for (int i = n - 1; i > 0; i--) {
      int j = random.nextInt(i + 1);
      int t = perm[i];
      perm[i] = perm[j];
      perm[j] = t;
    }
    for (int i = 0; i < n; i++) {
      next[perm[i]] = perm[(i + 1) % n];
    }
    for (int it = 0; it < iterations; it++) {
      long t0 = System.nanoTime();
      long steps = 0;
      int p = 0;
      while (System.nanoTime() - t0 < 200_000_000L) {
        for (int k = 0; k < 10_000; k++) {
          p = next[p];
        }
        steps += 10_000;
      }
      double chase = (System.nanoTime() - t0) / (double) steps;
      t0 = System.nanoTime();
      long acc = 0;
      long loops = 0;
      while (System.nanoTime() - t0 < 200_000_000L) {
        for (int k = 0; k < 100_000; k++) {
          acc = acc * 6364136223846793005L + k;
        }
        loops += 100_000;
      }
      sink += p + acc;
      System.out.printf("%d %.3f %.4f%n", it, chase, (System.nanoTime() - t0) / (double) loops);
    }
  }
}
