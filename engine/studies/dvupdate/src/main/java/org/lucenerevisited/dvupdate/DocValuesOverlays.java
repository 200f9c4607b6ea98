package org.lucenerevisited.dvupdate;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import org.apache.lucene.index.IndexWriterConfig;
import org.apache.lucene.util.Version;

/**
 * Lucene 10.6's DocValues overlays (GITHUB#16418, backported to 10.x in #16554): with {@code
 * IndexWriterConfig#setMaxDocValuesOverlays(n)}, n &gt; 0, a flush of set-only numeric or binary
 * DocValues updates writes a sparse delta generation holding only the updated documents, and readers
 * stack the deltas over the segment's column, newest first. More than n deltas of a field are folded
 * into one sparse generation, a delta covering the whole column folds back into a dense one, and a
 * merge flattens all. With 0, the 10.x default, every such flush rewrites the field's whole column in
 * each segment it touches, as since 4.6. Segments with overlays are written as {@code VERSION_10_6},
 * which older releases refuse to open.
 *
 * <p>Set by reflection: the method exists from 10.6.0 on, and this class compiles against every
 * release the study runs.
 */
final class DocValuesOverlays {

  private DocValuesOverlays() {}

  /** {@code config} with at most {@code overlays} stacked deltas per field. */
  static IndexWriterConfig configure(IndexWriterConfig config, int overlays) {
    Method setter;
    try {
      setter = IndexWriterConfig.class.getMethod("setMaxDocValuesOverlays", int.class);
    } catch (NoSuchMethodException e) {
      throw new IllegalArgumentException("update method 'overlays-" + overlays + "' needs "
          + "IndexWriterConfig#setMaxDocValuesOverlays, which came in Lucene 10.6.0; this engine runs Lucene "
          + Version.LATEST);
    }
    try {
      return (IndexWriterConfig) setter.invoke(config, overlays);
    } catch (IllegalAccessException | InvocationTargetException e) {
      throw new IllegalStateException("setMaxDocValuesOverlays(" + overlays + ") failed", e);
    }
  }
}
