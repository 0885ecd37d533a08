package io.columnarkafka.flink.calc;

import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import org.apache.flink.table.annotation.DataTypeHint;
import org.apache.flink.table.functions.FunctionContext;
import org.apache.flink.table.functions.ScalarFunction;

/** User-defined scalar functions the parity and plan tests call in Flink's Calc and in the columnar calc. */
public final class FlinkCodeUdfs {
    private FlinkCodeUdfs() {}

    /** The string's code points in reverse order (a non-BMP character stays whole). */
    public static final class ReverseText extends ScalarFunction {
        public String eval(String s) {
            return s == null ? null : new StringBuilder(s).reverse().toString();
        }
    }

    /** Every argument's value in one string: the calc hands over each type as Flink's Calc does. */
    public static final class DescribeArgs extends ScalarFunction {
        public String eval(Integer i, Long b, Double d, @DataTypeHint("DECIMAL(10, 2)") BigDecimal m, Boolean bo,
                @DataTypeHint("TIMESTAMP(3)") LocalDateTime ts, String s) {
            return i + "|" + b + "|" + d + "|" + m + "|" + bo + "|" + ts + "|" + s;
        }
    }

    /** INT in, INT out (wrapping at the end of the range). */
    public static final class PlusOne extends ScalarFunction {
        public Integer eval(Integer i) {
            return i == null ? null : i + 1;
        }
    }

    /** DOUBLE in, DOUBLE out. */
    public static final class Half extends ScalarFunction {
        public Double eval(Double d) {
            return d == null ? null : d / 2;
        }
    }

    /** STRING in, BOOLEAN out. */
    public static final class IsLong extends ScalarFunction {
        public Boolean eval(String s) {
            return s == null ? null : s.codePointCount(0, s.length()) > 3;
        }
    }

    /** DECIMAL in, DECIMAL of another precision and scale out. */
    public static final class Tripled extends ScalarFunction {
        public @DataTypeHint("DECIMAL(20, 3)") BigDecimal eval(@DataTypeHint("DECIMAL(10, 2)") BigDecimal m) {
            return m == null ? null : m.multiply(BigDecimal.valueOf(3)).setScale(3);
        }
    }

    /** TIMESTAMP in, TIMESTAMP out. */
    public static final class NextSecond extends ScalarFunction {
        public @DataTypeHint("TIMESTAMP(3)") LocalDateTime eval(@DataTypeHint("TIMESTAMP(3)") LocalDateTime ts) {
            return ts == null ? null : ts.plusSeconds(1);
        }
    }

    /**
     * Not deterministic: the number of this call on its instance. Equal results mean the function was called for
     * the same rows, in the same order, on one instance opened once.
     */
    public static final class CallNumber extends ScalarFunction {
        private long calls;

        public long eval(Long ignored) {
            return ++calls;
        }

        @Override
        public boolean isDeterministic() {
            return false;
        }
    }

    /** Throws on the string {@code boom}. */
    public static final class FailOnBoom extends ScalarFunction {
        public String eval(String s) {
            if ("boom".equals(s)) {
                throw new IllegalStateException("no boom allowed, got " + s);
            }
            return s;
        }
    }

    /**
     * Counts its opens, calls and closes (over all its instances: Flink deserializes copies); a call on an instance
     * that was not opened fails, so every call is made on an opened instance.
     */
    public static final class Counting extends ScalarFunction {
        static final AtomicInteger OPENS = new AtomicInteger();
        static final AtomicInteger CALLS = new AtomicInteger();
        static final AtomicInteger CLOSES = new AtomicInteger();
        private transient boolean open;

        static void reset() {
            OPENS.set(0);
            CALLS.set(0);
            CLOSES.set(0);
        }

        @Override
        public void open(FunctionContext context) {
            open = true;
            OPENS.incrementAndGet();
        }

        public long eval(Long b) {
            if (!open) {
                throw new IllegalStateException("called on an instance that was not opened");
            }
            CALLS.incrementAndGet();
            return b == null ? -1 : b;
        }

        @Override
        public void close() {
            CLOSES.incrementAndGet();
        }
    }

    /**
     * Deterministic functions (Flink's default) that count their calls per function over all instances, so a test can
     * run one statement through Flink's Calc and through the columnar calc and compare how often each was called.
     */
    public abstract static class CallCounted extends ScalarFunction {
        private static final Map<String, AtomicInteger> CALLS = new ConcurrentHashMap<>();

        /** The calls so far per function (its class's simple name), then none. */
        static Map<String, Integer> takeCalls() {
            Map<String, Integer> calls = new TreeMap<>();
            CALLS.forEach((name, count) -> calls.put(name, count.getAndSet(0)));
            calls.values().removeIf(count -> count == 0);
            return calls;
        }

        final void counted() {
            CALLS.computeIfAbsent(getClass().getSimpleName(), name -> new AtomicInteger()).incrementAndGet();
        }
    }

    /** STRING in, INT out: the number of code points. */
    public static final class CountedLength extends CallCounted {
        public Integer eval(String s) {
            counted();
            return s == null ? null : s.codePointCount(0, s.length());
        }
    }

    /** BIGINT in, INT out: the sign. */
    public static final class CountedSign extends CallCounted {
        public Integer eval(Long b) {
            counted();
            return b == null ? null : Long.signum(b);
        }
    }

    /** DOUBLE in, DOUBLE out: half the value. */
    public static final class CountedHalf extends CallCounted {
        public Double eval(Double d) {
            counted();
            return d == null ? null : d / 2;
        }
    }
}
