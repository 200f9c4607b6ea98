package org.lucenerevisited.engine;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;

/**
 * A codec with a chosen postings format for one field, every other field keeping the base codec's.
 * It deliberately carries the base codec's NAME: PerFieldPostingsFormat records each field's format
 * name as a field attribute, so the segment reads back by SPI through the stock codec and no custom
 * codec has to be registered.
 */
public final class FieldPostingsCodec extends FilterCodec {

  private final PostingsFormat perField;

  public FieldPostingsCodec(Codec base, String field, PostingsFormat format) {
    super(base.getName(), base);
    PerFieldPostingsFormat basePerField = (PerFieldPostingsFormat) base.postingsFormat();
    this.perField = new PerFieldPostingsFormat() {
      @Override
      public PostingsFormat getPostingsFormatForField(String name) {
        return field.equals(name) ? format : basePerField.getPostingsFormatForField(name);
      }
    };
  }

  @Override
  public PostingsFormat postingsFormat() {
    return perField;
  }
}
