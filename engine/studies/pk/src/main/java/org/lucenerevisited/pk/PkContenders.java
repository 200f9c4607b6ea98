package org.lucenerevisited.pk;

import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.bloom.BloomFilteringPostingsFormat;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;
import org.lucenerevisited.engine.FieldPostingsCodec;
import org.lucenerevisited.engine.shim.LuceneShim;

/**
 * Names of the pk study's contenders and the codec each one indexes with. A contender is a
 * postings-format SPI name used for the id field only, or one of the special names below.
 */
public final class PkContenders {

  /** The primary-key field; every other field keeps the version's default format. */
  public static final String ID_FIELD = "id";
  /** The version's default postings format for the id field. */
  public static final String DEFAULT = "default";
  /** BloomFilteringPostingsFormat wrapping the default format. */
  public static final String BLOOM = "BloomFilter";
  /** Heap map over the {@code default} index, built at reader open: see {@link GlobalPkMap}. */
  public static final String GLOBAL_MAP = "GlobalPkMap";
  /** The same documents without an id field, so Python can attribute bytes to the id field. */
  public static final String BASELINE = "baseline";
  /**
   * Suffix of a contender that reads its format's index but finds each key with {@code seekCeil}
   * (and a check that it landed on the key) instead of {@code seekExact}: the seed's second source
   * of gain, {@code seekExact} skipping the work of positioning on the next term after a miss.
   */
  public static final String SEEK_CEIL = "+seekCeil";

  private PkContenders() {}

  /**
   * Every contender this Lucene build can run: writable SPI postings formats (BloomFilter needs a
   * delegate, so it appears only as the special name), then default, BloomFilter, GlobalPkMap.
   */
  public static String[] available() {
    TreeSet<String> formats = new TreeSet<>(PostingsFormat.availablePostingsFormats());
    formats.remove(BLOOM);
    formats.removeAll(LuceneShim.INSTANCE.readOnlyPostingsFormats());
    List<String> out = new ArrayList<>(formats);
    out.add(DEFAULT);
    out.add(BLOOM);
    out.add(GLOBAL_MAP);
    return out.toArray(new String[0]);
  }

  /**
   * Prints {@link #available()}, one name per line. This is how the Python registry
   * ({@code lrev/pk/contenders.yaml}) is generated and checked:
   * {@code python -m lrev.pk.contenders --update} / {@code --check}.
   */
  public static void main(String[] args) {
    for (String name : available()) {
      System.out.println(name);
    }
  }

  /**
   * Throws IllegalArgumentException naming {@code contender} unless it is available: a name from
   * {@link #available()}, or an index format's name with {@link #SEEK_CEIL}.
   */
  public static void check(String contender) {
    String format = format(contender);
    boolean known = List.of(available()).contains(format)
        && !(isSeekCeil(contender) && GLOBAL_MAP.equals(format));
    if (!known) {
      throw new IllegalArgumentException("unknown contender '" + contender
          + "'; available on Lucene " + org.apache.lucene.util.Version.LATEST + ": "
          + String.join(", ", available()) + " (and any index format with " + SEEK_CEIL + ")");
    }
  }

  /** Whether {@code contender} looks keys up with {@code seekCeil}: see {@link #SEEK_CEIL}. */
  public static boolean isSeekCeil(String contender) {
    return contender.endsWith(SEEK_CEIL);
  }

  private static String format(String contender) {
    return isSeekCeil(contender)
        ? contender.substring(0, contender.length() - SEEK_CEIL.length()) : contender;
  }

  /**
   * The contender whose index {@code contender} reads: GlobalPkMap reads the default index, a
   * {@link #SEEK_CEIL} contender its format's.
   */
  public static String indexOf(String contender) {
    String format = format(contender);
    return GLOBAL_MAP.equals(format) ? DEFAULT : format;
  }

  /** The version's default postings format for the id field, e.g. Lucene41 or Lucene912. */
  public static PostingsFormat defaultPostingsFormat() {
    return ((PerFieldPostingsFormat) Codec.getDefault().postingsFormat())
        .getPostingsFormatForField(ID_FIELD);
  }

  /** The codec to index {@code contender} (or {@link #BASELINE}) with. */
  public static Codec codec(String contender) {
    if (BASELINE.equals(contender)) {
      return Codec.getDefault();
    }
    check(contender);
    PostingsFormat idFormat = switch (indexOf(contender)) {
      case DEFAULT -> defaultPostingsFormat();
      case BLOOM -> new BloomFilteringPostingsFormat(defaultPostingsFormat());
      default -> PostingsFormat.forName(contender);
    };
    return new FieldPostingsCodec(Codec.getDefault(), ID_FIELD, idFormat);
  }
}
