package org.lucenerevisited.engine.harness;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class TurnsTest {

  private static String read(InputStream in, int n) throws IOException {
    StringBuilder sb = new StringBuilder();
    for (int i = 0; i < n; i++) {
      sb.append((char) in.read());
    }
    return sb.toString();
  }

  @Test
  void aTurnWaitsForItsGrantAndPassesOnTheOneHeld() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Turns turns = new Turns(server.getLocalPort() + ":3");
      try (Socket conductor = server.accept()) {
        InputStream in = conductor.getInputStream();
        assertEquals("M3\n", read(in, 3));
        CompletableFuture<Void> first = CompletableFuture.runAsync(() -> enter(turns, 0));
        assertEquals("0", read(in, 1));
        Thread.sleep(50);
        assertTrue(!first.isDone(), "a turn must wait for its grant");
        conductor.getOutputStream().write('G');
        first.get(5, TimeUnit.SECONDS);
        CompletableFuture<Void> later = CompletableFuture.runAsync(() -> enter(turns, 2));
        assertEquals("F2", read(in, 2), "the turn held is passed on before the next is asked for");
        conductor.getOutputStream().write('G');
        later.get(5, TimeUnit.SECONDS);
      }
    }
  }

  @Test
  void aConductorThatWentAwayIsAnError() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Turns turns = new Turns(server.getLocalPort() + ":0");
      server.accept().close();
      IOException e = assertThrows(IOException.class, () -> turns.next());
      assertTrue(e.getMessage().contains("conductor"), e.getMessage());
    }
  }

  @Test
  void aStageOutsideZeroToNineIsRefused() throws Exception {
    try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
      Turns turns = new Turns(server.getLocalPort() + ":0");
      assertThrows(IllegalArgumentException.class, () -> turns.enter(10));
    }
  }

  @Test
  void thisJvmsCompilersAreFoundAndFallQuiet() {
    long nanos = Turns.compilerNanos();
    assertTrue(nanos > 0, "a JVM that ran this test has compiled something: " + nanos);
    long start = System.nanoTime();
    Turns.awaitQuietCompilers();
    assertTrue(System.nanoTime() - start <= Turns.QUIET_WAIT_NANOS + 500_000_000L);
  }

  private static void enter(Turns turns, int stage) {
    try {
      turns.enter(stage);
    } catch (IOException e) {
      throw new RuntimeException(e);
    }
  }
}
