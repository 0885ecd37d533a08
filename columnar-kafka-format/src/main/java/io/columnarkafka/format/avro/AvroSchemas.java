package io.columnarkafka.format.avro;

import java.util.ArrayList;
import java.util.List;
import org.apache.avro.LogicalTypes;
import org.apache.avro.Schema;
import org.apache.avro.SchemaBuilder;
import org.apache.flink.table.api.ValidationException;
import org.apache.flink.table.types.logical.ArrayType;
import org.apache.flink.table.types.logical.BigIntType;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.DateType;
import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.DoubleType;
import org.apache.flink.table.types.logical.FloatType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LocalZonedTimestampType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeFamily;
import org.apache.flink.table.types.logical.MapType;
import org.apache.flink.table.types.logical.MultisetType;
import org.apache.flink.table.types.logical.NullType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimeType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarBinaryType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * The Avro writer schema Flink 2.2.1's {@code AvroSchemaConverter.convertToSchema(rowType, legacy)} derives,
 * rule for rule, so that the schema (and the schema a registry is given) is the one Flink's format writes:
 *
 * <ul>
 *   <li>the record is {@code org.apache.flink.avro.generated.record}; a nested ROW is named after its
 *       parent plus {@code _<field>}; array elements and map values keep their parent's name;
 *   <li>a nullable type is the union {@code ["null", T]}; a nullable field has {@code "default": null};
 *   <li>array elements and map values are derived with the legacy timestamp mapping whatever the option
 *       says (Flink calls its two-argument overload there), so the option only reaches record fields.
 * </ul>
 */
public final class AvroSchemas {
    /** Flink's top-level record name. */
    public static final String RECORD_NAME = "org.apache.flink.avro.generated.record";

    private AvroSchemas() {}

    /**
     * The schema of {@code rowType}.
     *
     * @throws IllegalArgumentException or {@link UnsupportedOperationException} where Flink throws them
     */
    public static Schema derive(LogicalType rowType, boolean legacyTimestampMapping) {
        return derive(rowType, RECORD_NAME, legacyTimestampMapping);
    }

    private static Schema derive(LogicalType type, String name, boolean legacy) {
        Schema schema;
        switch (type.getTypeRoot()) {
            case NULL:
                return SchemaBuilder.builder().nullType();
            case BOOLEAN:
                schema = SchemaBuilder.builder().booleanType();
                break;
            case TINYINT:
            case SMALLINT:
            case INTEGER:
                schema = SchemaBuilder.builder().intType();
                break;
            case BIGINT:
                schema = SchemaBuilder.builder().longType();
                break;
            case FLOAT:
                schema = SchemaBuilder.builder().floatType();
                break;
            case DOUBLE:
                schema = SchemaBuilder.builder().doubleType();
                break;
            case CHAR:
            case VARCHAR:
                schema = SchemaBuilder.builder().stringType();
                break;
            case BINARY:
            case VARBINARY:
                schema = SchemaBuilder.builder().bytesType();
                break;
            case TIMESTAMP_WITHOUT_TIME_ZONE:
                schema = timestamp(type, ((TimestampType) type).getPrecision(), legacy, false);
                break;
            case TIMESTAMP_WITH_LOCAL_TIME_ZONE:
                schema = timestamp(type, ((LocalZonedTimestampType) type).getPrecision(), legacy, true);
                break;
            case DATE:
                schema = LogicalTypes.date().addToSchema(SchemaBuilder.builder().intType());
                break;
            case TIME_WITHOUT_TIME_ZONE:
                int precision = ((TimeType) type).getPrecision();
                if (precision > 3) {
                    throw new IllegalArgumentException("Avro does not support TIME type with precision: "
                            + precision + ", it only supports precision less than 3.");
                }
                schema = LogicalTypes.timeMillis().addToSchema(SchemaBuilder.builder().intType());
                break;
            case DECIMAL:
                DecimalType decimal = (DecimalType) type;
                schema = LogicalTypes.decimal(decimal.getPrecision(), decimal.getScale())
                        .addToSchema(SchemaBuilder.builder().bytesType());
                break;
            case ROW:
                schema = record((RowType) type, name, legacy);
                break;
            case MAP:
            case MULTISET:
                schema = SchemaBuilder.builder().map().values(derive(mapValueType(type), name, true));
                break;
            case ARRAY:
                schema = SchemaBuilder.builder().array()
                        .items(derive(((ArrayType) type).getElementType(), name, true));
                break;
            default:
                throw new UnsupportedOperationException("Unsupported to derive Schema for type: " + type);
        }
        return type.isNullable() ? nullable(schema) : schema;
    }

    private static Schema record(RowType row, String name, boolean legacy) {
        SchemaBuilder.FieldAssembler<Schema> fields = SchemaBuilder.builder().record(name).fields();
        for (RowType.RowField field : row.getFields()) {
            SchemaBuilder.GenericDefault<Schema> typed = fields.name(field.getName())
                    .type(derive(field.getType(), name + "_" + field.getName(), legacy));
            fields = field.getType().isNullable() ? typed.withDefault(null) : typed.noDefault();
        }
        return fields.endRecord();
    }

    private static Schema timestamp(LogicalType type, int precision, boolean legacy, boolean zoned) {
        org.apache.avro.LogicalType logical;
        if (legacy) {
            if (zoned) {
                throw new UnsupportedOperationException("Unsupported to derive Schema for type: " + type);
            }
            if (precision > 3) {
                throw new IllegalArgumentException("Avro does not support TIMESTAMP type with precision: "
                        + precision + ", it only supports precision less than 3.");
            }
            logical = LogicalTypes.timestampMillis();
        } else if (precision <= 3) {
            logical = zoned ? LogicalTypes.timestampMillis() : LogicalTypes.localTimestampMillis();
        } else if (precision <= 6) {
            logical = zoned ? LogicalTypes.timestampMicros() : LogicalTypes.localTimestampMicros();
        } else {
            throw new IllegalArgumentException("Avro does not support " + (zoned ? "" : "LOCAL ")
                    + "TIMESTAMP type with precision: " + precision + ", it only supports precision less than 6.");
        }
        return logical.addToSchema(SchemaBuilder.builder().longType());
    }

    /**
     * The value type of a MAP, or INT (nullable, as Flink declares it) for a MULTISET's counts.
     *
     * @throws UnsupportedOperationException if the keys are not strings
     */
    static LogicalType mapValueType(LogicalType type) {
        LogicalType key = type instanceof MapType map ? map.getKeyType() : ((MultisetType) type).getElementType();
        if (!key.is(LogicalTypeFamily.CHARACTER_STRING)) {
            throw new UnsupportedOperationException("Avro format doesn't support non-string as key type of map. "
                    + "The key type is: " + key.asSummaryString());
        }
        return type instanceof MapType map ? map.getValueType() : new IntType();
    }

    /**
     * The type Flink 2.2.1's {@code AvroSchemaConverter.convertToDataType(schema)} gives an Avro schema (legacy
     * timestamp mapping, its default), rule for rule: a record is a NOT NULL ROW of its fields in order, an enum and
     * a string are STRING, a fixed VARBINARY of its size (DECIMAL with the decimal logical type, as bytes), {@code
     * ["null", T]} and {@code [T, "null"]} are T nullable, a one-branch union its branch; every other type NOT NULL.
     *
     * @throws IllegalArgumentException for a union Flink converts to its RAW (Kryo) type, which no column of the
     *     decoder is, and where Flink's type constructors refuse (e.g. a decimal precision over 38)
     */
    public static LogicalType flinkType(Schema schema) {
        try {
            return convert(schema);
        } catch (ValidationException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
    }

    private static LogicalType convert(Schema schema) {
        org.apache.avro.LogicalType logical = schema.getLogicalType();
        switch (schema.getType()) {
            case RECORD: {
                List<RowType.RowField> fields = new ArrayList<>();
                for (Schema.Field field : schema.getFields()) {
                    fields.add(new RowType.RowField(field.name(), convert(field.schema())));
                }
                return new RowType(false, fields);
            }
            case ENUM:
            case STRING:
                return new VarCharType(false, Integer.MAX_VALUE);
            case ARRAY:
                return new ArrayType(false, convert(schema.getElementType()));
            case MAP:
                return new MapType(false, new VarCharType(false, Integer.MAX_VALUE),
                        convert(schema.getValueType()));
            case UNION: {
                List<Schema> types = schema.getTypes();
                if (types.size() == 2 && types.get(0).getType() == Schema.Type.NULL) {
                    return convert(types.get(1)).copy(true);
                }
                if (types.size() == 2 && types.get(1).getType() == Schema.Type.NULL) {
                    return convert(types.get(0)).copy(true);
                }
                if (types.size() == 1) {
                    return convert(types.get(0));
                }
                throw new IllegalArgumentException("the union " + schema + " is Flink's RAW type (Kryo)");
            }
            case FIXED:
                return logical instanceof LogicalTypes.Decimal decimal
                        ? new DecimalType(false, decimal.getPrecision(), decimal.getScale())
                        : new VarBinaryType(false, schema.getFixedSize());
            case BYTES:
                return logical instanceof LogicalTypes.Decimal decimal
                        ? new DecimalType(false, decimal.getPrecision(), decimal.getScale())
                        : new VarBinaryType(false, Integer.MAX_VALUE);
            case INT:
                return logical instanceof LogicalTypes.Date ? new DateType(false)
                        : logical instanceof LogicalTypes.TimeMillis ? new TimeType(false, 3) : new IntType(false);
            case LONG:
                return logical instanceof LogicalTypes.TimestampMillis ? new TimestampType(false, 3)
                        : logical instanceof LogicalTypes.TimestampMicros ? new TimestampType(false, 6)
                        : logical instanceof LogicalTypes.TimeMillis ? new TimeType(false, 3)
                        : logical instanceof LogicalTypes.TimeMicros ? new TimeType(false, 6)
                        : new BigIntType(false);
            case FLOAT:
                return new FloatType(false);
            case DOUBLE:
                return new DoubleType(false);
            case BOOLEAN:
                return new BooleanType(false);
            default: // NULL
                return new NullType();
        }
    }

    private static Schema nullable(Schema schema) {
        return schema.isNullable() ? schema : Schema.createUnion(SchemaBuilder.builder().nullType(), schema);
    }
}
