package io.columnarkafka.flink.source;

import java.io.Serializable;
import org.apache.flink.api.common.typeinfo.TypeInformation;
import org.apache.flink.api.connector.source.SourceReaderContext;

/** Makes each reader its own {@link BatchOutput} (outputs may keep reusable state), and names the type it emits. */
public interface BatchOutputFactory<T> extends Serializable {

    /** A new output for one reader. */
    BatchOutput<T> create(SourceReaderContext context);

    /** The type of the elements the outputs emit. */
    TypeInformation<T> producedType();
}
