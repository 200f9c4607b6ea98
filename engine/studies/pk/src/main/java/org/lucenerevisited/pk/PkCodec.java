package org.lucenerevisited.pk;

import org.apache.lucene.codecs.Codec;
import org.apache.lucene.codecs.FilterCodec;
import org.apache.lucene.codecs.PostingsFormat;
import org.apache.lucene.codecs.perfield.PerFieldPostingsFormat;

/**
 * The default codec with a chosen postings format for the id field. It deliberately carries the
 * default codec's NAME: PerFieldPostingsFormat records each field's format name as a field
 * attribute, so the segment reads back by SPI through the stock default codec and no custom
 * codec has to be registered.
 */
final class PkCodec extends FilterCodec {

  private final PostingsFormat perField;

  PkCodec(Codec base, PostingsFormat idFormat) {
    super(base.getName(), base);
    PerFieldPostingsFormat basePerField = (PerFieldPostingsFormat) base.postingsFormat();
    this.perField = new PerFieldPostingsFormat() {
      @Override
      public PostingsFormat getPostingsFormatForField(String field) {
        return PkContenders.ID_FIELD.equals(field)
            ? idFormat
            : basePerField.getPostingsFormatForField(field);
      }
    };
  }

  @Override
  public PostingsFormat postingsFormat() {
    return perField;
  }
}
