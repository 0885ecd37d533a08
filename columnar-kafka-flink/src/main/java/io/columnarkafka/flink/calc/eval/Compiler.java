package io.columnarkafka.flink.calc.eval;

import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import java.nio.charset.StandardCharsets;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.LogicalTypeRoot;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.TimestampType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Turns {@link Expr}s into {@link Node}s, admitting only what a node reproduces exactly; everything else
 * is refused with the reason. This is the one place that decides admission, so what {@code CalcSupport}
 * admits is exactly what runs.
 *
 * <p>Structurally equal calls (same operation, operands and type; {@link Expr}s are records) compiled by one
 * compiler, in the condition and the projections alike, become one {@link Node} that every reader shares and that
 * computes each row at most once per batch ({@link Node#share}). That is exact because every {@link Op} is
 * deterministic: a row's value does not depend on which reader asks first.
 */
final class Compiler {
    /** Locales whose lower/upper case of ASCII letters differs from {@link Character}'s. */
    private static final Set<String> CASE_SPECIAL_LANGUAGES = Set.of("tr", "az", "lt");

    private final RowType input;
    /** One load per input column or nested field path, shared by every expression that reads it. */
    private final Map<String, ColumnLoad> loads = new LinkedHashMap<>();
    /** Each call compiled so far, with the loads it reads, for the readers of an equal call to share. */
    private final Map<Expr.Call, Compiled> calls = new HashMap<>();
    /** The loads read by the expression being compiled. */
    private Set<ColumnLoad> reads = new LinkedHashSet<>();
    /** The calls compiled so far that run Flink's generated code. */
    private final List<FlinkCodeCall> flinkCodeCalls = new ArrayList<>();
    /** The generated classes of those calls, each once (a Calc's calls share one); the plan opens and closes them. */
    private final List<FlinkCodeInstance> flinkCodeInstances = new ArrayList<>();

    Compiler(RowType input) {
        this.input = input;
    }

    /** Compiles {@code e}, and adds to {@code readsOut} every load it reads (the plan loads them before it runs). */
    Node compileReading(Expr e, List<ColumnLoad> readsOut) throws UnsupportedExpressionException {
        reads = new LinkedHashSet<>();
        Node node = compile(e);
        readsOut.addAll(reads);
        return node;
    }

    Node compile(Expr e) throws UnsupportedExpressionException {
        if (e instanceof Expr.Column c) {
            return load(c, c.index(), new int[0], c.type());
        }
        if (e instanceof Expr.Field f) {
            return field(f);
        }
        if (e instanceof Expr.Literal l) {
            requireRepr(l.type(), "literal " + l.value());
            if (!LiteralNode.holds(l.value(), l.type())) {
                throw new UnsupportedExpressionException("literal " + l.value() + " ("
                        + l.value().getClass().getName() + ") is not a value of " + Types.name(l.type())
                        + " in Flink's internal format");
            }
            return new LiteralNode(l.value(), l.type());
        }
        if (e instanceof Expr.FlinkCode code) {
            return flinkCode(code);
        }
        return shared((Expr.Call) e);
    }

    /**
     * A call Flink's generated code evaluates, over its arguments compiled as any expression; each argument's and the
     * result's values must be ones the calc holds (then {@link ColumnsRow} reads and {@link FlinkCodeCall} keeps them).
     */
    private Node flinkCode(Expr.FlinkCode code) throws UnsupportedExpressionException {
        requireRepr(code.type(), "the result of " + code.name());
        Node[] arguments = new Node[code.arguments().size()];
        for (int i = 0; i < arguments.length; i++) {
            Expr argument = code.arguments().get(i);
            requireRepr(argument.type(), "argument " + i + " of " + code.name());
            arguments[i] = compile(argument);
        }
        FlinkCodeCall node = new FlinkCodeCall(code, instance(code), arguments);
        flinkCodeCalls.add(node);
        return node;
    }

    /** The one instance of the generated class of {@code code}'s calls, shared by every call of it. */
    private FlinkCodeInstance instance(Expr.FlinkCode code) {
        for (FlinkCodeInstance instance : flinkCodeInstances) {
            if (instance.of(code.code())) {
                return instance;
            }
        }
        FlinkCodeInstance instance = new FlinkCodeInstance(code.code());
        flinkCodeInstances.add(instance);
        return instance;
    }

    /** The calls compiled so far that run Flink's generated code. */
    List<FlinkCodeCall> flinkCodeCalls() {
        return List.copyOf(flinkCodeCalls);
    }

    /** The generated classes of those calls, each once. */
    List<FlinkCodeInstance> flinkCodeInstances() {
        return List.copyOf(flinkCodeInstances);
    }

    /** A compiled call and the loads its node reads. */
    private record Compiled(Node node, Set<ColumnLoad> reads) {}

    /** The node of an equal call compiled before, shared, or a new node for {@code call}. */
    private Node shared(Expr.Call call) throws UnsupportedExpressionException {
        Compiled known = calls.get(call);
        if (known == null) {
            Set<ColumnLoad> outer = reads;
            reads = new LinkedHashSet<>();
            try {
                known = new Compiled(call(call), reads);
            } finally {
                outer.addAll(reads);
                reads = outer;
            }
            calls.put(call, known);
            return known.node();
        }
        known.node().share();
        reads.addAll(known.reads());
        return known.node();
    }

    /** The calls compiled so far that more than one expression reads, each compiled once into a shared node. */
    List<Expr.Call> sharedCalls() {
        return calls.entrySet().stream().filter(c -> c.getValue().node().isShared()).map(Map.Entry::getKey).toList();
    }

    private Node load(Expr e, int column, int[] path, LogicalType type) throws UnsupportedExpressionException {
        if (column >= input.getFieldCount()) {
            throw new UnsupportedExpressionException(
                    "column " + column + " does not exist in the input row type " + input.asSummaryString());
        }
        LogicalType actual = input.getTypeAt(column);
        for (int index : path) {
            actual = actual.getChildren().get(index);
        }
        if (!actual.copy(true).equals(type.copy(true))) {
            throw new UnsupportedExpressionException(describe(e) + " is typed " + Types.name(type)
                    + " but the input holds " + Types.name(actual));
        }
        requireRepr(type, describe(e));
        String key = column + Arrays.toString(path);
        ColumnLoad existing = loads.get(key);
        if (existing == null) {
            existing = new ColumnLoad(column, path, actual);
            loads.put(key, existing);
        }
        reads.add(existing);
        return existing;
    }

    private Node field(Expr.Field f) throws UnsupportedExpressionException {
        List<Integer> path = new ArrayList<>();
        Expr at = f;
        while (at instanceof Expr.Field inner) {
            path.add(0, inner.index());
            at = inner.row();
        }
        if (!(at instanceof Expr.Column column)) {
            throw new UnsupportedExpressionException(
                    "field access on a computed ROW (" + describe(at) + "); only input columns' fields are read");
        }
        LogicalType t = input.getFieldCount() > column.index() ? input.getTypeAt(column.index()) : null;
        for (int index : path) {
            if (t == null || t.getTypeRoot() != LogicalTypeRoot.ROW || index >= t.getChildren().size()) {
                throw new UnsupportedExpressionException(describe(f) + " does not name a field of a ROW column");
            }
            t = t.getChildren().get(index);
        }
        return load(f, column.index(), path.stream().mapToInt(Integer::intValue).toArray(), f.type());
    }

    private Node call(Expr.Call call) throws UnsupportedExpressionException {
        List<Expr> args = call.operands();
        LogicalType type = call.type();
        switch (call.op()) {
            case PLUS:
            case MINUS:
                arity(call, 2);
                if (Types.is(type, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
                    return timestampShift(call);
                }
                return Arithmetic.binary(call, compile(args.get(0)), compile(args.get(1)));
            case TIMES:
            case DIVIDE:
            case MOD:
                arity(call, 2);
                return Arithmetic.binary(call, compile(args.get(0)), compile(args.get(1)));
            case UNARY_MINUS:
                arity(call, 1);
                return Arithmetic.negate(call, compile(args.get(0)));
            case EQUALS:
            case NOT_EQUALS:
            case LESS_THAN:
            case LESS_THAN_OR_EQUAL:
            case GREATER_THAN:
            case GREATER_THAN_OR_EQUAL:
                arity(call, 2);
                requireBoolean(call, type);
                return Comparisons.of(call, compile(args.get(0)), compile(args.get(1)));
            case AND:
            case OR:
                if (args.size() < 2) {
                    throw new UnsupportedExpressionException(call.op() + " with " + args.size() + " operands");
                }
                requireBoolean(call, type);
                return new Logic(call.op(), booleans(call, args), type);
            case NOT:
            case IS_TRUE:
            case IS_NOT_TRUE:
            case IS_FALSE:
            case IS_NOT_FALSE:
                arity(call, 1);
                requireBoolean(call, type);
                return new Predicate(call.op(), booleans(call, args)[0], type);
            case IS_NULL:
            case IS_NOT_NULL:
                arity(call, 1);
                requireBoolean(call, type);
                return new Predicate(call.op(), compile(args.get(0)), type);
            case CASE:
                return caseWhen(call);
            case CAST:
                arity(call, 1);
                return Casts.of(call, compile(args.get(0)));
            case REINTERPRET:
                arity(call, 1);
                return reinterpret(call, compile(args.get(0)));
            case LOWER:
            case UPPER:
                arity(call, 1);
                String language = Locale.getDefault().getLanguage();
                if (CASE_SPECIAL_LANGUAGES.contains(language)) {
                    throw new UnsupportedExpressionException(call.op() + " in the default locale " + Locale.getDefault()
                            + ": Flink's case mapping of ASCII letters depends on how the string was built there");
                }
                return new CaseConversion(call.op() == Op.LOWER, string(call, args.get(0)), requireString(call, type));
            case CHAR_LENGTH:
                arity(call, 1);
                if (!Types.is(type, LogicalTypeRoot.INTEGER)) {
                    throw new UnsupportedExpressionException("CHAR_LENGTH typed " + Types.name(type) + ", not INT");
                }
                return new CharLength(string(call, args.get(0)), type);
            case CONCAT:
                if (args.size() < 2) {
                    throw new UnsupportedExpressionException("CONCAT with " + args.size() + " operands");
                }
                Node[] parts = new Node[args.size()];
                for (int i = 0; i < parts.length; i++) {
                    parts[i] = string(call, args.get(i));
                }
                return new Concat(parts, requireString(call, type));
            case LIKE:
                return like(call);
            case REGEXP_EXTRACT:
                return regexpExtract(call);
            case SPLIT_INDEX:
                return splitIndex(call);
            case EXTRACT:
                arity(call, 2);
                return extract(call, literalString(call, args.get(0)), args.get(1));
            case HOUR:
                arity(call, 1);
                return extract(call, "HOUR", args.get(0));
            case SUBSTRING:
                return substring(call);
            case DATE_FORMAT:
                return dateFormat(call);
            case HASH_CODE:
                return hashCode(call);
            default:
                throw new UnsupportedExpressionException(call.op() + " is not implemented by the columnar calc");
        }
    }

    /** HASH_CODE of an INT, BIGINT or VARCHAR (the operand types {@link HashCode} reproduces). */
    private Node hashCode(Expr.Call call) throws UnsupportedExpressionException {
        arity(call, 1);
        Node operand = compile(call.operands().get(0));
        if (!Types.is(operand.type, LogicalTypeRoot.INTEGER) && !Types.is(operand.type, LogicalTypeRoot.BIGINT)
                && !Types.is(operand.type, LogicalTypeRoot.VARCHAR)) {
            throw new UnsupportedExpressionException("HASH_CODE of " + Types.name(operand.type)
                    + " (only INT, BIGINT, VARCHAR)");
        }
        if (!Types.is(call.type(), LogicalTypeRoot.INTEGER)) {
            throw new UnsupportedExpressionException("HASH_CODE typed " + Types.name(call.type()) + ", not INT");
        }
        return new HashCode(operand, call.type());
    }

    /**
     * {@code ts + INTERVAL ...} or {@code ts - INTERVAL ...} of a day-time interval literal (e.g. a WATERMARK's
     * {@code ts - INTERVAL '4' SECOND}); the result keeps the timestamp's precision, as Flink's code keeps its type.
     */
    private Node timestampShift(Expr.Call call) throws UnsupportedExpressionException {
        Expr timestamp = call.operands().get(0);
        Expr interval = call.operands().get(1);
        if (!Types.is(timestamp.type(), LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
                || !(interval instanceof Expr.Literal literal)
                || !Types.is(literal.type(), LogicalTypeRoot.INTERVAL_DAY_TIME)
                || !(literal.value() instanceof Long millis)) {
            throw new UnsupportedExpressionException(call.op() + " on " + Types.name(timestamp.type()) + ", "
                    + Types.name(interval.type()) + " typed " + Types.name(call.type())
                    + ": only a TIMESTAMP plus or minus a day-time INTERVAL literal is evaluated");
        }
        if (((TimestampType) timestamp.type()).getPrecision() != ((TimestampType) call.type()).getPrecision()) {
            throw new UnsupportedExpressionException(call.op() + " on " + Types.name(timestamp.type())
                    + " typed " + Types.name(call.type()) + ": the result must keep the timestamp's precision");
        }
        return new TimestampShift(compile(timestamp), call.op() == Op.MINUS ? -millis : millis, call.type());
    }

    private Node caseWhen(Expr.Call call) throws UnsupportedExpressionException {
        List<Expr> args = call.operands();
        if (args.size() < 3 || args.size() % 2 == 0) {
            throw new UnsupportedExpressionException("CASE with " + args.size() + " operands (expected when/then pairs"
                    + " and an else)");
        }
        LogicalType type = call.type();
        requireRepr(type, "CASE");
        int pairs = args.size() / 2;
        Node[] conditions = new Node[pairs];
        Node[] branches = new Node[pairs];
        for (int p = 0; p < pairs; p++) {
            conditions[p] = booleans(call, List.of(args.get(2 * p)))[0];
            branches[p] = branch(call, args.get(2 * p + 1));
        }
        return new CaseWhen(conditions, branches, branch(call, args.get(args.size() - 1)), type);
    }

    /** A CASE result: held as the CASE's type holds it (Flink assigns branch values without conversion). */
    private Node branch(Expr.Call call, Expr e) throws UnsupportedExpressionException {
        Node node = compile(e);
        LogicalType want = call.type();
        boolean same = Repr.of(node.type) == Repr.of(want)
                && node.type.getTypeRoot() == want.getTypeRoot()
                && Types.scale(node.type) == Types.scale(want);
        if (!same) {
            throw new UnsupportedExpressionException("CASE typed " + Types.name(want) + " with a branch typed "
                    + Types.name(node.type) + ": only branches of the CASE's own type are evaluated");
        }
        return node;
    }

    /**
     * Flink's code generator hands the operand on as is when the type root stays the same (a rowtime
     * attribute is a TIMESTAMP marked as one); only that shape, with the same precision, is admitted.
     */
    private static Node reinterpret(Expr.Call call, Node operand) throws UnsupportedExpressionException {
        LogicalType from = operand.type;
        LogicalType to = call.type();
        if (!Types.is(from, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
                || !Types.is(to, LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)
                || ((TimestampType) from).getPrecision() != ((TimestampType) to).getPrecision()) {
            throw new UnsupportedExpressionException("REINTERPRET of " + Types.name(from) + " as " + Types.name(to)
                    + ": only a TIMESTAMP as a time attribute of the same precision is evaluated");
        }
        return new Cast(Cast.Kind.SAME, operand, 0, 0, 0, to);
    }

    private Node like(Expr.Call call) throws UnsupportedExpressionException {
        if (call.operands().size() != 2) {
            throw new UnsupportedExpressionException("LIKE with an ESCAPE clause is not implemented");
        }
        requireBoolean(call, call.type());
        String pattern = literalString(call, call.operands().get(1));
        Like.Shape shape = Like.shapeOf(pattern);
        if (shape == null) {
            throw new UnsupportedExpressionException("LIKE pattern '" + pattern + "': only 'abc', 'abc%', '%abc' and"
                    + " '%abc%' without '_' are evaluated (Flink runs other patterns through a regex or a chain checker)");
        }
        byte[] needle = Like.needleOf(pattern, shape).getBytes(StandardCharsets.UTF_8);
        return new Like(string(call, call.operands().get(0)), shape, needle, call.type());
    }

    private Node regexpExtract(Expr.Call call) throws UnsupportedExpressionException {
        if (call.operands().size() != 3) {
            throw new UnsupportedExpressionException("REGEXP_EXTRACT without a literal group index is not implemented");
        }
        String regex = literalString(call, call.operands().get(1));
        Pattern pattern;
        try {
            pattern = Pattern.compile(regex);
        } catch (PatternSyntaxException e) {
            throw new UnsupportedExpressionException("REGEXP_EXTRACT with the invalid regex '" + regex + "'");
        }
        int group = (int) literalInteger(call, call.operands().get(2));
        return new RegexpExtract(string(call, call.operands().get(0)), pattern, group, requireString(call, call.type()));
    }

    private Node splitIndex(Expr.Call call) throws UnsupportedExpressionException {
        arity(call, 3);
        String separator = literalString(call, call.operands().get(1));
        if (separator.isEmpty()) {
            throw new UnsupportedExpressionException("SPLIT_INDEX with an empty separator (Flink splits on whitespace)");
        }
        long index = literalInteger(call, call.operands().get(2));
        return new SplitIndex(string(call, call.operands().get(0)), separator.getBytes(StandardCharsets.UTF_8),
                (int) Math.max(-1, Math.min(Integer.MAX_VALUE, index)), requireString(call, call.type()));
    }

    private Node substring(Expr.Call call) throws UnsupportedExpressionException {
        List<Expr> args = call.operands();
        if (args.size() != 2 && args.size() != 3) {
            throw new UnsupportedExpressionException("SUBSTRING with " + args.size() + " operands");
        }
        Node[] positions = new Node[args.size() - 1];
        for (int i = 1; i < args.size(); i++) {
            if (!Types.is(args.get(i).type(), LogicalTypeRoot.INTEGER)) {
                throw new UnsupportedExpressionException("SUBSTRING with a position or length typed "
                        + Types.name(args.get(i).type()) + ", not INT");
            }
            positions[i - 1] = compile(args.get(i));
        }
        return new Substring(string(call, args.get(0)), positions[0], positions.length > 1 ? positions[1] : null,
                requireString(call, call.type()));
    }

    private Node dateFormat(Expr.Call call) throws UnsupportedExpressionException {
        arity(call, 2);
        Expr value = call.operands().get(0);
        if (!Types.is(value.type(), LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
            throw new UnsupportedExpressionException(
                    "DATE_FORMAT of " + Types.name(value.type()) + " is not implemented (TIMESTAMP is)");
        }
        String pattern = literalString(call, call.operands().get(1));
        DateTimeFormatter formatter;
        try {
            formatter = DateTimeFormatter.ofPattern(pattern);
        } catch (IllegalArgumentException e) {
            throw new UnsupportedExpressionException("DATE_FORMAT with the invalid pattern '" + pattern + "'");
        }
        return new DateFormat(compile(value), formatter, NumericDatePattern.of(pattern),
                requireString(call, call.type()));
    }

    private Node extract(Expr.Call call, String unit, Expr value) throws UnsupportedExpressionException {
        long[] periodAndUnit = ExtractTimeField.periodAndUnit(unit.toUpperCase(Locale.ROOT));
        if (periodAndUnit == null) {
            throw new UnsupportedExpressionException("EXTRACT of " + unit + " is not implemented (HOUR, MINUTE, SECOND are)");
        }
        if (!Types.is(value.type(), LogicalTypeRoot.TIMESTAMP_WITHOUT_TIME_ZONE)) {
            throw new UnsupportedExpressionException(
                    "EXTRACT(" + unit + ") from " + Types.name(value.type()) + " is not implemented (TIMESTAMP is)");
        }
        if (!Types.is(call.type(), LogicalTypeRoot.BIGINT)) {
            throw new UnsupportedExpressionException("EXTRACT typed " + Types.name(call.type()) + ", not BIGINT");
        }
        return new ExtractTimeField(compile(value), periodAndUnit[0], periodAndUnit[1], call.type());
    }

    private Node[] booleans(Expr.Call call, List<Expr> args) throws UnsupportedExpressionException {
        Node[] nodes = new Node[args.size()];
        for (int i = 0; i < nodes.length; i++) {
            if (!Types.is(args.get(i).type(), LogicalTypeRoot.BOOLEAN)) {
                throw new UnsupportedExpressionException(
                        call.op() + " on " + Types.name(args.get(i).type()) + ": a BOOLEAN operand is expected");
            }
            nodes[i] = compile(args.get(i));
        }
        return nodes;
    }

    private Node string(Expr.Call call, Expr e) throws UnsupportedExpressionException {
        if (!Types.isString(e.type())) {
            throw new UnsupportedExpressionException(
                    call.op() + " on " + Types.name(e.type()) + ": only CHAR/VARCHAR operands are evaluated");
        }
        return compile(e);
    }

    private static String literalString(Expr.Call call, Expr e) throws UnsupportedExpressionException {
        if (e instanceof Expr.Literal l && l.value() instanceof StringData s) {
            return s.toString();
        }
        throw new UnsupportedExpressionException(call.op() + " with a non-literal " + describe(e)
                + " where a string literal is expected");
    }

    private static long literalInteger(Expr.Call call, Expr e) throws UnsupportedExpressionException {
        if (e instanceof Expr.Literal l && Types.isInteger(l.type()) && l.value() instanceof Number n) {
            return n.longValue();
        }
        throw new UnsupportedExpressionException(call.op() + " with a non-literal " + describe(e)
                + " where an integer literal is expected");
    }

    private static void arity(Expr.Call call, int expected) throws UnsupportedExpressionException {
        if (call.operands().size() != expected) {
            throw new UnsupportedExpressionException(
                    call.op() + " with " + call.operands().size() + " operands (expected " + expected + ")");
        }
    }

    private static void requireBoolean(Expr.Call call, LogicalType type) throws UnsupportedExpressionException {
        if (!Types.is(type, LogicalTypeRoot.BOOLEAN)) {
            throw new UnsupportedExpressionException(call.op() + " typed " + Types.name(type) + ", not BOOLEAN");
        }
    }

    private static LogicalType requireString(Expr.Call call, LogicalType type) throws UnsupportedExpressionException {
        if (!Types.isString(type)) {
            throw new UnsupportedExpressionException(call.op() + " typed " + Types.name(type) + ", not a string");
        }
        return type;
    }

    static void requireRepr(LogicalType type, String what) throws UnsupportedExpressionException {
        if (Repr.of(type) == null) {
            throw new UnsupportedExpressionException(what + " of type " + Types.name(type)
                    + ": the calc evaluates BOOLEAN, TINYINT..BIGINT, DOUBLE, DECIMAL, CHAR/VARCHAR, DATE and"
                    + " TIMESTAMP values");
        }
    }

    static String describe(Expr e) {
        if (e instanceof Expr.Column c) {
            return "column " + c.index();
        }
        if (e instanceof Expr.Field f) {
            return "field " + f.index() + " of " + describe(f.row());
        }
        if (e instanceof Expr.Literal l) {
            return "literal " + l.value();
        }
        if (e instanceof Expr.FlinkCode code) {
            return code.name();
        }
        return ((Expr.Call) e).op().name();
    }

    /** STRING, i.e. VARCHAR of the largest length. */
    static boolean isUnboundedString(LogicalType t) {
        return t instanceof VarCharType v && v.getLength() == VarCharType.MAX_LENGTH;
    }
}
