package io.columnarkafka.format.json.parity;

import java.io.IOException;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonFactory;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonParser;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.JsonToken;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.core.util.JsonParserDelegate;
import org.apache.flink.shaded.jackson2.com.fasterxml.jackson.databind.ObjectMapper;

/**
 * The parsers {@link FlinkJsonDecodeOracle}'s deserializer reads through: Jackson's own, watched for the records on
 * which Flink 2.2's deserializer never returns.
 *
 * <p>Why it never returns (read in {@code JsonParserToRowDataConverters} and {@code
 * JsonParserRowDataDeserializationSchema}, release-2.2): under {@code ignore-parse-errors} a value that fails
 * becomes null wherever the parser stands, so the converters can get out of step with the input's structure and
 * the parser can reach the end of the input (outside any structure: Jackson fails at the end inside one) while a
 * converter still waits for an end token. From then on {@code nextToken()} returns null forever, and the loops
 * {@code while (jp.nextToken() != JsonToken.END_ARRAY)} (arrays, and {@code processArray} over a top-level array),
 * {@code while (jp.nextToken() != JsonToken.END_OBJECT)} (maps) and {@code while (match > 0)} ({@code
 * skipToNextField}) never end: the array loop adds a null element per turn until the heap runs out, the others
 * spin. (A row converter at the end throws a NullPointerException from {@code skipToNextField}'s switch over the
 * null token, so rows alone do finish.) A run that finishes asks past the end at most twice per converter on the
 * stack; {@link #LOOPING} requests past the end can only be one of those loops.
 *
 * <p>The parser only counts until then, so Flink's outcome on every other record is untouched. Once Flink is
 * certainly looping, it throws {@link NeverReturns} on every request: each loop's next turn throws, the
 * converters' catch-alls (which under {@code ignore-parse-errors} turn a failure into null) are all outside a loop
 * turn's {@code nextToken()}, so the run unwinds, and the oracle reports the record as one Flink never returns on.
 */
final class PastEndParsers {
    /** Requests past the end that only a loop makes (a finishing run makes two per nesting level at most). */
    static final int LOOPING = 1000;

    /** Thrown into Flink's loop to end it; the outcome of a record Flink never returns on. */
    static final class NeverReturns extends Error {
        private static final long serialVersionUID = 1L;

        NeverReturns() {
            super("Flink's deserializer never returns on this record: it asked for " + LOOPING + " tokens past the end"
                    + " of the input (a converter's loop waiting for END_ARRAY / END_OBJECT)");
        }
    }

    private Watched last;

    /** {@code mapper} with the same configuration, whose parsers over a byte array are watched. */
    ObjectMapper mapperLike(ObjectMapper mapper) {
        return mapper.copyWith(new Factory(mapper.getFactory()));
    }

    /** The error if the last record's parser found Flink looping, else null; forgets that parser. */
    NeverReturns neverReturned() {
        NeverReturns never = last == null ? null : last.never;
        last = null;
        return never;
    }

    private final class Factory extends JsonFactory {
        private static final long serialVersionUID = 1L;

        Factory(JsonFactory source) {
            super(source, null);
        }

        @Override
        public JsonParser createParser(byte[] data) throws IOException {
            last = new Watched(super.createParser(data));
            return last;
        }
    }

    private static final class Watched extends JsonParserDelegate {
        private int pastEnd;
        private NeverReturns never;

        Watched(JsonParser parser) {
            super(parser);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            if (never != null) {
                throw never;
            }
            JsonToken token = delegate.nextToken();
            // Jackson closes the parser when it reaches the end outside any structure, and yields null from then on.
            if (token == null && delegate.isClosed() && ++pastEnd >= LOOPING) {
                never = new NeverReturns();
                throw never;
            }
            return token;
        }
    }
}
