package org.lucenerevisited.engine.harness;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;

/**
 * The turn this JVM shares with the other JVMs of its lockstep group ({@code lrev/turns.py}): it
 * runs its work only while it holds the turn, which a conductor grants one JVM at a time. This host's
 * speed drifts over seconds (memory-bound code by about 14 % between 0.2 s windows, docs/noise.md), so
 * two contenders timed minutes apart differ by that drift; timed turn by turn, a series' samples of
 * every contender lie within a second of each other and their ratio cancels it.
 *
 * <p>Work goes in stages. Stage 0 is the timed samples, granted round-robin ({@link #next}); a later
 * stage ({@link #enter}) is granted only once every JVM of the group has reached it, so that what one
 * JVM does after its samples (say, evicting the index from the page cache) cannot touch another's
 * samples. The turn is held from a grant until the next request, or until the JVM exits. Without the
 * system property {@code lrev.turns} ({@code port:member}) the JVM is alone and every turn is its own.
 */
public final class Turns {
  /** How long a turn waits at most, once its samples are done, for this JVM's compilers to fall quiet. */
  static final long QUIET_WAIT_NANOS = 2_000_000_000L;
  /** Compilers that did not run for this long are quiet. */
  static final long QUIET_POLL_MILLIS = 2;
  private static final String GONE = "the conductor of this JVM's lockstep turns went away";
  private static Turns shared;
  private static boolean looked;
  private final InputStream in;
  private final OutputStream out;
  private boolean held;

  /** Connects to the conductor at {@code port:member} on localhost. */
  Turns(String address) throws IOException {
    String[] parts = address.split(":");
    Socket socket = new Socket(InetAddress.getLoopbackAddress(), Integer.parseInt(parts[0]));
    socket.setTcpNoDelay(true);
    in = socket.getInputStream();
    out = socket.getOutputStream();
    out.write(("M" + parts[1] + "\n").getBytes(StandardCharsets.US_ASCII));
    out.flush();
  }

  /** This JVM's turn, or null when it runs alone (no {@code lrev.turns}). */
  public static synchronized Turns shared() throws IOException {
    if (!looked) {
      looked = true;
      String address = System.getProperty("lrev.turns");
      shared = address == null ? null : new Turns(address);
    }
    return shared;
  }

  /** Waits for this JVM's next turn at stage 0, the timed samples, passing on the one it holds. */
  public void next() throws IOException {
    enter(0);
  }

  /**
   * Passes on the turn this JVM holds, then waits until it is granted one at {@code stage} (0-9): at a
   * stage above 0, only once every JVM of the group has asked for that stage or a later one, or exited.
   */
  public synchronized void enter(int stage) throws IOException {
    if (stage < 0 || stage > 9) {
      throw new IllegalArgumentException("stage must be 0-9, not " + stage);
    }
    int answer;
    try {
      if (held) {
        awaitQuietCompilers();
        out.write('F');
      }
      out.write('0' + stage);
      out.flush();
      held = false;
      answer = in.read();
    } catch (IOException e) {
      throw new IOException(GONE, e);
    }
    if (answer != 'G') {
      throw new IOException(GONE);
    }
    held = true;
  }

  /**
   * Waits (at most {@link #QUIET_WAIT_NANOS}) until this JVM's JIT compiler threads have not run for
   * {@link #QUIET_POLL_MILLIS}: what the samples of its turn queued is compiled before the turn passes on,
   * not beside another JVM's sample, whose own JIT counters would not show it. Linux only (the threads'
   * run time in {@code /proc/self/task/<tid>/schedstat}); elsewhere it returns at once.
   */
  static void awaitQuietCompilers() {
    long deadline = System.nanoTime() + QUIET_WAIT_NANOS;
    long before = compilerNanos();
    while (before >= 0 && System.nanoTime() < deadline) {
      try {
        Thread.sleep(QUIET_POLL_MILLIS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
        return;
      }
      long now = compilerNanos();
      if (now == before) {
        return;
      }
      before = now;
    }
  }

  /** The JIT compiler threads' run time so far (ns), or -1 where /proc does not tell. */
  static long compilerNanos() {
    long sum = 0;
    try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Paths.get("/proc/self/task"))) {
      for (Path task : tasks) {
        try {
          // The kernel keeps 15 characters of a thread's name: "C2 CompilerThread0" is "C2 CompilerThre".
          String name = Files.readString(task.resolve("comm")).trim();
          if (name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre")) {
            sum += Long.parseLong(Files.readString(task.resolve("schedstat")).split(" ")[0]);
          }
        } catch (IOException | NumberFormatException e) {
          // a thread that ended while it was read: it runs no more
        }
      }
    } catch (IOException | UnsupportedOperationException e) {
      return -1;
    }
    return sum;
  }

  /** {@link #enter} on this JVM's turn, if it has one: a no-op for a JVM that runs alone. */
  public static void enterShared(int stage) throws IOException {
    Turns turns = shared();
    if (turns != null) {
      turns.enter(stage);
    }
  }
}
