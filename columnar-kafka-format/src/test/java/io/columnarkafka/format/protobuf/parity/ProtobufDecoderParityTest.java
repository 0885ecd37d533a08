package io.columnarkafka.format.protobuf.parity;

import static io.columnarkafka.format.protobuf.parity.PbRecords.concat;
import static io.columnarkafka.format.protobuf.parity.PbRecords.options;
import static io.columnarkafka.format.protobuf.parity.PbRecords.raw;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.google.protobuf.ByteString;
import com.google.protobuf.CodedOutputStream;
import io.columnarkafka.format.Formats;
import io.columnarkafka.format.RowTypes;
import io.columnarkafka.format.parity.DecoderParityCheck;
import io.columnarkafka.format.protobuf.testmsg.Choice3;
import io.columnarkafka.format.protobuf.testmsg.Color;
import io.columnarkafka.format.protobuf.testmsg.Inner3;
import io.columnarkafka.format.protobuf.testmsg.Maps3;
import io.columnarkafka.format.protobuf.testmsg.Outer3;
import io.columnarkafka.format.protobuf.testmsg.Repeated3;
import io.columnarkafka.format.protobuf.testmsg.Scalars3;
import io.columnarkafka.format.protobuf.testmsg2.Proto2Messages;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.apache.flink.table.types.logical.RowType;
import org.junit.jupiter.api.Test;

/**
 * The protobuf decoder against Flink 2.2's {@code PbRowDataDeserializationSchema} on the same bytes, under
 * the four combinations of {@code ignore-parse-errors} and {@code read-default-values}: records Flink's
 * serializer wrote for every test message, and raw wire bytes it never writes (negative varints of every
 * width, packed and unpacked either way, fields sent twice, oneof switches, unknown fields of every wire type,
 * nested groups, undeclared enum numbers, truncations and corruptions).
 */
class ProtobufDecoderParityTest {
    static final DecoderParityCheck PB = FlinkProtobufOracle.decodeCheck();

    /** Rows compared and records rejected over all four option combinations. */
    record Counts(long rows, long rejected, long skipped) {}

    static Counts assertAllOptions(Class<?> message, RowType type, List<byte[]> records) {
        long rows = 0;
        long rejected = 0;
        long skipped = 0;
        for (boolean ignore : new boolean[] {false, true}) {
            for (boolean defaults : new boolean[] {false, true}) {
                DecoderParityCheck.Result result = PB.assertParity(type, options(message, ignore, defaults), records);
                rows += result.comparedRows();
                rejected += result.rejectedRecords();
                skipped += result.recordsWithoutRows();
            }
        }
        return new Counts(rows, rejected, skipped);
    }

    static RowType all(Class<?> message, boolean enumsByNumber) {
        return PbRows.allFields(PbRecords.descriptor(message), enumsByNumber);
    }

    @Test
    void everyTestMessageAsFlinkWritesIt() {
        long rows = 0;
        for (Class<?> message : PbRecords.MESSAGES) {
            for (boolean byNumber : new boolean[] {false, true}) {
                RowType type = all(message, byNumber);
                List<byte[]> records = PbRecords.written(message, type, new PbRows(message.getName().hashCode()), 40);
                records.add(new byte[0]); // every field unset
                rows += assertAllOptions(message, type, records).rows();
            }
        }
        assertThat(rows).isGreaterThan(1000);
    }

    @Test
    void scalarEdgesWrittenByProtobufJava() {
        List<byte[]> records = new ArrayList<>();
        records.add(Scalars3.newBuilder().setI32(-1).setI64(Long.MIN_VALUE).setU32(-1).setU64(-1).setS32(Integer.MIN_VALUE)
                .setS64(Long.MIN_VALUE).setFx32(-1).setFx64(-1).setSf32(Integer.MIN_VALUE).setSf64(Long.MAX_VALUE)
                .setD(-0.0).setF(Float.NaN).setB(true).setS("\u00e9\uD83D\uDE00").setBy(ByteString.copyFrom(new byte[] {0, -1}))
                .setEValue(-1).setOi(0).setOs("").setOe(Color.RED).setFar(-5).build().toByteArray());
        records.add(Scalars3.newBuilder().setI32(Integer.MAX_VALUE).setS32(-1).setS64(1).setD(Double.NEGATIVE_INFINITY)
                .setM(Inner3.newBuilder().addL(-1).addL(0)).build().toByteArray());
        records.add(Scalars3.newBuilder().setM(Inner3.getDefaultInstance()).build().toByteArray());
        // an int32 sent as a 5-byte and as a 10-byte varint; a bool as a varint of 2; an int32 whose varint has
        // bits beyond 32
        records.add(raw(out -> {
            out.writeTag(3, 0);
            out.writeUInt64NoTag(0xFFFFFFFFL);
            out.writeTag(13, 0);
            out.writeUInt64NoTag(2);
            out.writeTag(5, 0);
            out.writeUInt64NoTag(0x1_0000_0005L);
        }));
        for (boolean byNumber : new boolean[] {false, true}) {
            assertThat(assertAllOptions(Scalars3.class, all(Scalars3.class, byNumber), records).rows()).isPositive();
        }
        List<byte[]> proto2 = List.of(
                Proto2Messages.Scalars2.newBuilder().setI(0).setS("").setE(Proto2Messages.Level.HIGH)
                        .setM(Proto2Messages.Inner2.getDefaultInstance()).build().toByteArray(),
                Proto2Messages.Scalars2.newBuilder().setWithDefault(-7).setU32(-1).setS64(-3).build().toByteArray(),
                new byte[0]);
        for (boolean byNumber : new boolean[] {false, true}) {
            assertAllOptions(Proto2Messages.Scalars2.class, all(Proto2Messages.Scalars2.class, byNumber), proto2);
        }
    }

    @Test
    void repeatedFieldsPackedOrNotWhateverTheyDeclare() {
        List<byte[]> records = List.of(raw(out -> {
            out.writeTag(1, 0); // ri unpacked, then packed, then unpacked again
            out.writeInt32NoTag(-1);
            out.writeTag(1, 2);
            out.writeUInt32NoTag(3);
            out.writeInt32NoTag(1);
            out.writeInt32NoTag(2);
            out.writeInt32NoTag(127);
            out.writeTag(1, 0);
            out.writeInt32NoTag(9);
            out.writeTag(12, 2); // declared [packed = false], sent packed
            out.writeUInt32NoTag(2);
            out.writeInt32NoTag(5);
            out.writeInt32NoTag(6);
            out.writeTag(9, 5); // fixed32 unpacked
            out.writeFixed32NoTag(-2);
            out.writeTag(8, 2); // bools packed, with a 2
            out.writeUInt32NoTag(3);
            out.writeUInt32NoTag(0);
            out.writeUInt32NoTag(2);
            out.writeUInt32NoTag(1);
            out.writeTag(2, 2); // an empty packed run
            out.writeUInt32NoTag(0);
            out.writeTag(5, 2); // enums packed, one undeclared (open enum: kept as UNRECOGNIZED)
            out.writeUInt32NoTag(2);
            out.writeEnumNoTag(2);
            out.writeEnumNoTag(77);
        }), Repeated3.newBuilder().addRm(Inner3.getDefaultInstance()).addRs("").addRb(ByteString.EMPTY).build()
                .toByteArray(), new byte[0]);
        RowType byName = all(Repeated3.class, false);
        Counts counts = assertAllOptions(Repeated3.class, byName, records);
        assertThat(counts.rows()).isEqualTo(12);
        // by number, the undeclared enum number fails the record in Flink (UNRECOGNIZED.getNumber())
        Counts byNumber = assertAllOptions(Repeated3.class, all(Repeated3.class, true), records);
        assertThat(byNumber.rejected()).isEqualTo(2);
        List<byte[]> proto2 = List.of(raw(out -> {
            out.writeTag(16, 0); // a closed enum: undeclared numbers are dropped
            out.writeEnumNoTag(4);
            out.writeTag(16, 0);
            out.writeEnumNoTag(5);
            out.writeTag(16, 2);
            out.writeUInt32NoTag(3);
            out.writeEnumNoTag(3);
            out.writeEnumNoTag(1);
            out.writeEnumNoTag(7);
            out.writeTag(14, 0); // declared packed, sent unpacked
            out.writeInt32NoTag(-8);
            out.writeTag(4, 0); // singular closed enum: the undeclared number is dropped, the earlier one stays
            out.writeEnumNoTag(5);
            out.writeTag(4, 0);
            out.writeEnumNoTag(6);
        }), raw(out -> {
            out.writeTag(16, 0); // only undeclared numbers: no element
            out.writeEnumNoTag(4);
            out.writeTag(4, 0);
            out.writeEnumNoTag(0);
        }));
        for (boolean number : new boolean[] {false, true}) {
            assertThat(assertAllOptions(Proto2Messages.Scalars2.class, all(Proto2Messages.Scalars2.class, number), proto2)
                    .rows()).isEqualTo(8);
        }
    }

    @Test
    void fieldsSentTwiceAsProtobufJavaParsesThem() {
        long rows = 0;
        for (Class<?> message : PbRecords.MESSAGES) {
            RowType type = all(message, false);
            List<byte[]> written = PbRecords.written(message, type, new PbRows(7 + message.getName().hashCode()), 30);
            List<byte[]> records = new ArrayList<>();
            for (int i = 0; i + 1 < written.size(); i++) {
                records.add(concat(written.get(i), written.get(i + 1)));
                records.add(concat(written.get(i), written.get(i + 1), written.get(i)));
            }
            rows += assertAllOptions(message, type, records).rows();
        }
        // map keys sent twice: first position, last value; an entry without key or value
        byte[] maps = raw(out -> {
            writeEntry(out, 1, "b", 1);
            writeEntry(out, 1, "a", 2);
            writeEntry(out, 1, "b", 3);
            out.writeTag(1, 2);
            out.writeUInt32NoTag(0); // key "" value 0
            out.writeTag(3, 2); // mim: an entry with only a value, merged twice within the entry
            byte[] inner = Inner3.newBuilder().setX(4).addL(1).build().toByteArray();
            byte[] inner2 = Inner3.newBuilder().setS("t").addL(2).build().toByteArray();
            out.writeUInt32NoTag(2 + inner.length + 2 + inner2.length);
            out.writeTag(2, 2);
            out.writeByteArrayNoTag(inner);
            out.writeTag(2, 2);
            out.writeByteArrayNoTag(inner2);
        });
        rows += assertAllOptions(Maps3.class, all(Maps3.class, false), List.of(maps)).rows();
        assertThat(rows).isGreaterThan(800);
    }

    private static void writeEntry(CodedOutputStream out, int field, String key, int value) throws java.io.IOException {
        byte[] entry = raw(e -> {
            e.writeString(1, key);
            e.writeInt32(2, value);
        });
        out.writeTag(field, 2);
        out.writeByteArrayNoTag(entry);
    }

    @Test
    void oneofKeepsItsLastMember() {
        byte[] a = Choice3.newBuilder().setA(5).setZ(1).build().toByteArray();
        byte[] b = Choice3.newBuilder().setB("x").build().toByteArray();
        byte[] c1 = Choice3.newBuilder().setC(Inner3.newBuilder().setX(1).addL(1)).build().toByteArray();
        byte[] c2 = Choice3.newBuilder().setC(Inner3.newBuilder().setS("s").addL(2)).build().toByteArray();
        List<byte[]> records = List.of(a, b, c1, concat(a, b), concat(b, a), concat(c1, c2), concat(c1, a, c2),
                concat(c1, b), concat(a, c1, c2, b, c2), new byte[0]);
        for (boolean byNumber : new boolean[] {false, true}) {
            assertThat(assertAllOptions(Choice3.class, all(Choice3.class, byNumber), records).rows()).isEqualTo(40);
        }
    }

    @Test
    void unknownFieldsAreSkipped() {
        byte[] valid = Outer3.newBuilder().setOne(Inner3.newBuilder().setX(3).setS("s"))
                .setDeep(Outer3.Deep.newBuilder().addTags("t").putByName("k", Inner3.newBuilder().setX(1).build()))
                .build().toByteArray();
        byte[] unknown = raw(out -> {
            out.writeUInt64(99, -1);
            out.writeFixed64(100, 7);
            out.writeFixed32(101, 7);
            out.writeBytes(536870911, ByteString.copyFromUtf8("\u00ff")); // the largest field number
            out.writeTag(102, 3); // a group holding a group
            out.writeTag(103, 3);
            out.writeUInt64(1, 1);
            out.writeTag(103, 4);
            out.writeString(2, "x");
            out.writeTag(102, 4);
            out.writeFixed32(2, 1); // a known field (one) with another wire type
            out.writeTag(1, 0); // a repeated message field sent as a varint
            out.writeUInt64NoTag(5);
        });
        List<byte[]> records = List.of(concat(unknown, valid), concat(valid, unknown), unknown);
        assertThat(assertAllOptions(Outer3.class, all(Outer3.class, false), records).rows()).isEqualTo(12);
        assertThat(assertAllOptions(Proto2Messages.Scalars2.class, all(Proto2Messages.Scalars2.class, false),
                List.of(concat(unknown, Proto2Messages.Scalars2.newBuilder().setI(1).build().toByteArray()))).rows())
                .isEqualTo(4);
    }

    @Test
    void groupsNestedUpToTheRecursionLimit() {
        List<byte[]> records = new ArrayList<>();
        for (int depth : new int[] {1, 98, 99, 100, 101, 150}) {
            records.add(raw(out -> {
                for (int d = 0; d < depth; d++) {
                    out.writeTag(50, 3);
                }
                for (int d = 0; d < depth; d++) {
                    out.writeTag(50, 4);
                }
                out.writeInt32(4, 1);
            }));
        }
        Counts counts = assertAllOptions(Choice3.class, all(Choice3.class, false), records);
        assertThat(counts.rejected()).isPositive();
        assertThat(counts.rows()).isPositive();
        // nested in a message field, one level deeper
        List<byte[]> nested = new ArrayList<>();
        for (int depth : new int[] {98, 99, 100}) {
            byte[] inner = raw(out -> {
                for (int d = 0; d < depth; d++) {
                    out.writeTag(50, 3);
                }
                for (int d = 0; d < depth; d++) {
                    out.writeTag(50, 4);
                }
            });
            nested.add(raw(out -> out.writeByteArray(3, inner)));
        }
        assertAllOptions(Choice3.class, all(Choice3.class, false), nested);
    }

    @Test
    void malformedRecordsFailOrAreSkippedAsInFlink() {
        List<byte[]> valid = new ArrayList<>();
        valid.add(Scalars3.newBuilder().setI32(-1).setD(1.5).setS("\u00e9").setM(Inner3.newBuilder().setX(300).addL(-1))
                .setFar(1).build().toByteArray());
        valid.add(Maps3.newBuilder().putMsi("k\u00e9", 1).putMim(-1, Inner3.newBuilder().setS("v").build()).build()
                .toByteArray());
        valid.add(Repeated3.newBuilder().addRi(-1).addRi(300).addRfx(1).addRs("x").addRm(Inner3.newBuilder().setX(1))
                .build().toByteArray());
        valid.add(Proto2Messages.Scalars2.newBuilder().setS("x").addRp(1).addRp(-1).putMs("a", "b")
                .setM(Proto2Messages.Inner2.newBuilder().setS("y")).build().toByteArray());
        long rejected = 0;
        long rows = 0;
        Class<?>[] messages = {Scalars3.class, Maps3.class, Repeated3.class, Proto2Messages.Scalars2.class};
        for (int m = 0; m < messages.length; m++) {
            byte[] record = valid.get(m);
            List<byte[]> records = new ArrayList<>();
            for (int cut = 0; cut < record.length; cut++) {
                records.add(Arrays.copyOf(record, cut));
            }
            for (int at = 0; at < record.length; at++) { // a tag, a varint's continuation bit, a length, a wire type
                for (int b : new int[] {0x00, 0x80, 0xFF, 0x0F}) {
                    byte[] flipped = record.clone();
                    flipped[at] = (byte) b;
                    records.add(flipped);
                }
            }
            for (boolean byNumber : new boolean[] {false, true}) {
                Counts counts = assertAllOptions(messages[m], all(messages[m], byNumber), records);
                rejected += counts.rejected();
                rows += counts.rows();
            }
        }
        List<byte[]> handmade = Arrays.asList(
                new byte[] {0x00}, // field number 0
                new byte[] {0x0E}, // wire type 6
                new byte[] {0x0F}, // wire type 7
                new byte[] {0x0C}, // an end-group tag with no group
                new byte[] {0x18, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0x01}, // an 11-byte varint
                new byte[] {0x18, -1, -1, -1, -1, -1, -1, -1, -1, -1, 0x7F}, // a 10-byte varint, high bits dropped
                new byte[] {0x72, -1, -1, -1, -1, 0x0F}, // a negative length
                new byte[] {0x72, 0x02, (byte) 0xC3, 0x28}, // proto3 string, invalid UTF-8
                new byte[] {(byte) 0x8A, 0x01, 0x02, 0x12, 0x01}, // Inner3.s cut inside the nested message
                new byte[] {(byte) 0x8A, 0x01, 0x03, 0x12, 0x01, (byte) 0xFF}, // Inner3.s invalid UTF-8
                new byte[] {(byte) 0x8A, 0x01, 0x01, 0x0C}, // an end-group tag inside a nested message
                new byte[] {0x53, 0x54}, // group field 10 closed as 10: wire-type mismatch for the known fx64
                new byte[] {(byte) 0x9B, 0x03, (byte) 0xA4, 0x03}, // group 51 closed by group 52
                new byte[] {(byte) 0x9B, 0x03}, // a group never closed
                new byte[] {0x4D, 0x01, 0x02}, // fixed32 cut
                null);
        for (boolean byNumber : new boolean[] {false, true}) {
            Counts counts = assertAllOptions(Scalars3.class, all(Scalars3.class, byNumber), handmade);
            rejected += counts.rejected();
            rows += counts.rows();
        }
        List<byte[]> proto2 = List.of(
                new byte[] {0x12, 0x02, (byte) 0xC3, 0x28}, // proto2 string: not validated, read as U+FFFD
                new byte[] {(byte) 0x92, 0x01, 0x06, 0x0A, 0x01, (byte) 0xFF, 0x12, 0x01, 0x61}, // map key, invalid UTF-8
                new byte[] {(byte) 0x92, 0x01, 0x06, 0x0A, 0x01, 0x61, 0x12, 0x01, (byte) 0xFF}, // map value, invalid
                new byte[] {0x72, 0x02, 0x01, (byte) 0x81}, // packed int32 run ending inside a varint
                new byte[] {0x52, 0x03, 0x01, 0x02, 0x03}); // packed fixed64 run of 3 bytes
        for (boolean byNumber : new boolean[] {false, true}) {
            Counts counts = assertAllOptions(Proto2Messages.Scalars2.class, all(Proto2Messages.Scalars2.class, byNumber),
                    proto2);
            rejected += counts.rejected();
            rows += counts.rows();
        }
        assertThat(rejected).isGreaterThan(1000);
        assertThat(rows).isGreaterThan(1000);
    }

    @Test
    void errorsNameRecordAndField() {
        RowType type = RowTypes.parse("ROW<m ROW<x INT, s STRING>, i32 INT>");
        byte[] good = Scalars3.newBuilder().setI32(1).build().toByteArray();
        byte[] bad = {(byte) 0x8A, 0x01, 0x03, 0x12, 0x01, (byte) 0xFF};
        DecoderParityCheck.Result result = PB.assertParity(type, options(Scalars3.class, false, false),
                List.of(good, bad));
        assertThat(result.rejections().get(1).getMessage()).contains("record 0").contains("m.s")
                .contains("invalid UTF-8");
    }

    @Test
    void shapesNotReadNativelyAreRefusedWhenPlanned() {
        Map<String, String> options = options(Scalars3.class, false, false);
        assertThatThrownBy(() -> Formats.decoder("protobuf", RowTypes.parse("ROW<e BIGINT>"), options))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("needs CHAR, VARCHAR or INT");
        assertThatThrownBy(() -> Formats.decoder("protobuf", RowTypes.parse("ROW<nope INT>"), options))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("no field of that name");
        assertThatThrownBy(() -> Formats.decoder("protobuf", RowTypes.parse("ROW<i32 INT>"),
                Map.of("message-class-name", Scalars3.class.getName(), "ignore-parse-errors", "yes")))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("ignore-parse-errors");
        assertThatThrownBy(() -> Formats.decoder("protobuf", RowTypes.parse("ROW<items ARRAY<ROW<name STRING>>>"),
                options(Proto2Messages.HoldsRequired2.class, false, false)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("required field 'id'");
        assertThat(Formats.decodable()).contains("protobuf");
    }
}
