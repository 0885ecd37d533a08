package io.columnarkafka.flink.table;

import java.util.Map;
import org.apache.flink.configuration.Configuration;
import org.apache.flink.table.api.TableEnvironment;
import org.apache.flink.table.api.internal.TableEnvironmentInternal;
import org.apache.flink.table.catalog.ObjectIdentifier;
import org.apache.flink.table.catalog.ResolvedCatalogTable;
import org.apache.flink.table.connector.source.DynamicTableSource;
import org.apache.flink.table.factories.DynamicTableSourceFactory;
import org.apache.flink.table.factories.FactoryUtil;

/**
 * The scan decision for a table created in a table environment, as the planner gets it: the table's source
 * built by its connector's factory from the resolved table.
 */
final class ScanDecisions {
    private ScanDecisions() {}

    static Admission of(TableEnvironment tEnv, String table) {
        ObjectIdentifier id = ObjectIdentifier.of(tEnv.getCurrentCatalog(), tEnv.getCurrentDatabase(), table);
        ResolvedCatalogTable resolved = (ResolvedCatalogTable) ((TableEnvironmentInternal) tEnv).getCatalogManager()
                .getTableOrError(id).getResolvedTable();
        String connector = resolved.getOptions().get("connector");
        DynamicTableSourceFactory factory = connector.equals(UpsertKafkaColumnarTableFactory.IDENTIFIER)
                ? new UpsertKafkaColumnarTableFactory() : new KafkaColumnarTableFactory();
        DynamicTableSource source = factory.createDynamicTableSource(new FactoryUtil.DefaultDynamicTableContext(
                id, resolved, Map.of(), new Configuration(), ScanDecisions.class.getClassLoader(), false));
        if (source instanceof ColumnarKafkaDynamicSource admitted) {
            return admitted.admission();
        }
        return ((FallbackKafkaSource) source).admission();
    }
}
