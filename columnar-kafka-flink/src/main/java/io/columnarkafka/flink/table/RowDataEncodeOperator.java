package io.columnarkafka.flink.table;

import io.columnarkafka.client.RecordSizeLimit;
import org.apache.flink.api.common.typeutils.TypeSerializer;
import org.apache.flink.streaming.runtime.streamrecord.StreamRecord;
import org.apache.flink.table.data.RowData;

/**
 * The SQL sink's edge: the encoding ({@link RowBatchEncodeOperator}) of the rows the planner hands the connector's
 * sink, each after {@code head}, the steps Flink's sink node would run as operators in front of it (the planner
 * stage's row sink), where there is one.
 */
final class RowDataEncodeOperator<B> extends RowBatchEncodeOperator<RowData, B> {
    private static final long serialVersionUID = 1L;

    /** The steps Flink's sink node would run as operators before this one (the planner stage's row sink), or null. */
    private final SinkRowHead head;

    /**
     * @param rowCopier copies the rows kept past a call when the job reuses objects or {@code head} runs a Calc, which
     *     refills its output row; else null
     */
    RowDataEncodeOperator(EncodePlan plan, EncodedRecords<B, ?> elements, TypeSerializer<RowData> rowCopier,
            RecordSizeLimit sizeLimit, SinkRowHead head) {
        super(plan, elements, rowCopier, sizeLimit);
        this.head = head;
    }

    @Override
    public void open() throws Exception {
        super.open();
        if (head != null) {
            head.open(getRuntimeContext());
        }
    }

    /**
     * A row the head returns may be refilled by the head's next call (Flink's generated Calc reuses its output row):
     * the translator then sets the row copier. The topic is read as a new String; the metadata that would keep more
     * (timestamp, headers) is not admitted with a head.
     */
    @Override
    public void processElement(StreamRecord<RowData> element) throws Exception {
        RowData row = head == null ? element.getValue() : head.apply(element);
        if (row != null) { // else dropped by the Calc's condition or Flink's constraint enforcer
            write(row);
        }
    }

    @Override
    AutoCloseable inputResources() {
        return head == null ? null : head::close;
    }
}
