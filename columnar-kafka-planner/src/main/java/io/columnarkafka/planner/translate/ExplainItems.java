package io.columnarkafka.planner.translate;

import java.util.ArrayList;
import java.util.List;
import org.apache.calcite.rel.RelNode;
import org.apache.calcite.rel.RelWriter;
import org.apache.calcite.sql.SqlExplainLevel;
import org.apache.calcite.util.Pair;

/**
 * The attributes a Flink node shows in EXPLAIN (its table, fields, select, where ...), taken once from the
 * node a columnar node replaces, so the columnar node reads the same plus what it adds. Its inputs are not
 * kept: a columnar node explains its own.
 */
final class ExplainItems implements RelWriter {
    private final List<Pair<String, Object>> items = new ArrayList<>();

    static ExplainItems of(RelNode replaced) {
        ExplainItems collector = new ExplainItems();
        replaced.explain(collector);
        return collector;
    }

    /** Writes the attributes to {@code pw}. */
    RelWriter writeTo(RelWriter pw) {
        for (Pair<String, Object> item : items) {
            pw.item(item.left, item.right);
        }
        return pw;
    }

    @Override
    public void explain(RelNode rel, List<Pair<String, Object>> valueList) {
        throw new UnsupportedOperationException("collects one node's attributes only");
    }

    @Override
    public SqlExplainLevel getDetailLevel() {
        return SqlExplainLevel.EXPPLAN_ATTRIBUTES;
    }

    @Override
    public RelWriter item(String term, Object value) {
        if (!(value instanceof RelNode)) {
            items.add(Pair.of(term, value));
        }
        return this;
    }

    @Override
    public RelWriter done(RelNode node) {
        return this;
    }
}
