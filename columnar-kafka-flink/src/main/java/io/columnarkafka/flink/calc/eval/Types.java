package io.columnarkafka.flink.calc.eval;

import org.apache.flink.table.types.logical.DecimalType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;

/** Type questions the compiler asks. */
final class Types {
    private Types() {}

    static boolean isInteger(LogicalType t) {
        LogicalTypeRoot r = t.getTypeRoot();
        return r == LogicalTypeRoot.TINYINT || r == LogicalTypeRoot.SMALLINT || r == LogicalTypeRoot.INTEGER
                || r == LogicalTypeRoot.BIGINT;
    }

    static boolean is(LogicalType t, LogicalTypeRoot root) {
        return t.getTypeRoot() == root;
    }

    static boolean isString(LogicalType t) {
        return is(t, LogicalTypeRoot.CHAR) || is(t, LogicalTypeRoot.VARCHAR);
    }

    /** Digits before the point an integer or decimal value may need (an integer type as DECIMAL(n, 0)). */
    static int integerDigits(LogicalType t) {
        switch (t.getTypeRoot()) {
            case TINYINT:
                return 3;
            case SMALLINT:
                return 5;
            case INTEGER:
                return 10;
            case BIGINT:
                return 19;
            case DECIMAL:
                DecimalType d = (DecimalType) t;
                return d.getPrecision() - d.getScale();
            default:
                throw new IllegalArgumentException(t.asSummaryString());
        }
    }

    /** Scale of a decimal; 0 for an integer type. */
    static int scale(LogicalType t) {
        return t instanceof DecimalType d ? d.getScale() : 0;
    }

    /** Precision of a decimal, or of an integer type seen as DECIMAL(n, 0). */
    static int precision(LogicalType t) {
        return t instanceof DecimalType d ? d.getPrecision() : integerDigits(t);
    }

    static String name(LogicalType t) {
        return t.asSummaryString();
    }
}
