package org.lucenerevisited.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.MappedByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ResidentBytesTest {

  @TempDir
  Path tmp;

  @Test
  void countsTouchedPagesOfMappedFilesBelowTheDirectoryOnly() throws Exception {
    Path inside = Files.createDirectories(tmp.resolve("index"));
    Path outside = Files.createDirectories(tmp.resolve("other"));
    int size = 4 << 20;
    Files.write(inside.resolve("a.bin"), new byte[size]);
    Files.write(outside.resolve("b.bin"), new byte[size]);
    assertEquals(0, ResidentBytes.ofFilesUnder(inside), "nothing mapped yet");
    try (FileChannel a = FileChannel.open(inside.resolve("a.bin"), StandardOpenOption.READ);
        FileChannel b = FileChannel.open(outside.resolve("b.bin"), StandardOpenOption.READ)) {
      MappedByteBuffer ma = a.map(FileChannel.MapMode.READ_ONLY, 0, size);
      MappedByteBuffer mb = b.map(FileChannel.MapMode.READ_ONLY, 0, size);
      long sum = 0;
      for (int i = 0; i < size / 2; i += 4096) {
        sum += ma.get(i) + mb.get(i);
      }
      long resident = ResidentBytes.ofFilesUnder(inside);
      assertTrue(resident >= size / 2 && resident <= size, "resident " + resident + " " + sum);
      assertTrue(ResidentBytes.ofFilesUnder(outside) >= size / 2);
      java.lang.ref.Reference.reachabilityFence(ma);
      java.lang.ref.Reference.reachabilityFence(mb);
    }
  }
}
