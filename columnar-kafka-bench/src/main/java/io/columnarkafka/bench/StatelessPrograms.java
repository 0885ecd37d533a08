package io.columnarkafka.bench;

import io.columnarkafka.bench.nexmark.PlannedCalc;
import io.columnarkafka.flink.calc.CalcProgram;
import io.columnarkafka.flink.calc.Expr;
import io.columnarkafka.flink.calc.Op;
import io.columnarkafka.testkit.nexmark.NexmarkGenerator;
import java.util.ArrayList;
import java.util.List;
import org.apache.flink.table.data.StringData;
import org.apache.flink.table.types.logical.BooleanType;
import org.apache.flink.table.types.logical.IntType;
import org.apache.flink.table.types.logical.LogicalType;
import org.apache.flink.table.types.logical.RowType;
import org.apache.flink.table.types.logical.VarCharType;

/**
 * Columnar calc programs of stateless Nexmark queries over the suite's event rows, written with the operations the
 * planner stage hands the calc for them ({@code nexmark/qN.sql} over the {@code bid} view): q0 (the bid's five
 * fields), q10 (q0's columns and two {@code DATE_FORMAT}s of the bid's time) and q21 (a {@code CASE} over {@code
 * LOWER(channel)} with {@code REGEXP_EXTRACT} of the url, and that regex or the channel list as the condition); the
 * other stateless queries are planned from their SQL (see {@link #of}). The
 * bid's time is the bid row's own field, as {@code ConditionFacts} makes of the source table's CASE once the
 * condition says {@code event_type = 2}. For harnesses that run the calc outside a job; the Nexmark cells plan the
 * SQL itself.
 */
final class StatelessPrograms {
    private static final RowType EVENTS = NexmarkGenerator.EVENT_TYPE;
    private static final int BID = 3;
    private static final RowType BID_ROW = (RowType) EVENTS.getTypeAt(BID);
    private static final LogicalType STRING = VarCharType.STRING_TYPE;
    private static final String CHANNEL_ID = "(&|^)channel_id=([^&]*)";
    private static final List<String> CHANNELS = List.of("apple", "google", "facebook", "baidu");

    private StatelessPrograms() {}

    /**
     * The program of {@code query}: q0, q10 and q21 written here; any other stateless query planned from its SQL
     * ({@link PlannedCalc}, Flink's planner jar on the class path), as q14, whose calc calls the user-defined function
     * {@code count_char} through Flink's generated code, which only the planner makes.
     */
    static CalcProgram of(String query) {
        switch (query) {
            case "q0":
                return CalcBenchmark.q0();
            case "q10":
                return q10();
            case "q21":
                return q21();
            default:
                return PlannedCalc.of(query);
        }
    }

    private static CalcProgram q10() {
        List<Expr> projections = new ArrayList<>();
        List<String> names = new ArrayList<>();
        for (String name : List.of("auction", "bidder", "price", "dateTime", "extra")) {
            projections.add(bid(name));
            names.add(name);
        }
        projections.add(Expr.Call.of(Op.DATE_FORMAT, STRING, bid("dateTime"), text("yyyy-MM-dd")));
        names.add("dt");
        projections.add(Expr.Call.of(Op.DATE_FORMAT, STRING, bid("dateTime"), text("HH:mm")));
        names.add("hm");
        return new CalcProgram(EVENTS, projections, names, isBid());
    }

    private static CalcProgram q21() {
        Expr lowerChannel = Expr.Call.of(Op.LOWER, STRING, bid("channel"));
        Expr channelId = Expr.Call.of(Op.REGEXP_EXTRACT, STRING, bid("url"), text(CHANNEL_ID),
                new Expr.Literal(2, new IntType(false)));
        List<Expr> caseOperands = new ArrayList<>();
        List<Expr> knownChannel = new ArrayList<>();
        for (int c = 0; c < CHANNELS.size(); c++) {
            Expr isChannel = Expr.Call.of(Op.EQUALS, new BooleanType(), lowerChannel, text(CHANNELS.get(c)));
            caseOperands.add(isChannel);
            caseOperands.add(text(Integer.toString(c)));
            knownChannel.add(isChannel);
        }
        caseOperands.add(channelId);
        List<Expr> projections = List.of(bid("auction"), bid("bidder"), bid("price"), bid("channel"),
                new Expr.Call(Op.CASE, caseOperands, STRING));
        List<Expr> anyOf = new ArrayList<>();
        anyOf.add(Expr.Call.of(Op.IS_NOT_NULL, new BooleanType(false), channelId));
        anyOf.addAll(knownChannel);
        Expr condition = Expr.Call.of(Op.AND, new BooleanType(), isBid(), new Expr.Call(Op.OR, anyOf, new BooleanType()));
        return new CalcProgram(EVENTS, projections, List.of("auction", "bidder", "price", "channel", "channel_id"),
                condition);
    }

    private static Expr bid(String name) {
        int index = BID_ROW.getFieldIndex(name);
        return new Expr.Field(new Expr.Column(BID, BID_ROW), index, BID_ROW.getTypeAt(index));
    }

    private static Expr isBid() {
        return Expr.Call.of(Op.EQUALS, new BooleanType(), new Expr.Column(0, EVENTS.getTypeAt(0)),
                new Expr.Literal(2, new IntType(false)));
    }

    private static Expr text(String value) {
        return new Expr.Literal(StringData.fromString(value), new VarCharType(false, value.length()));
    }
}
