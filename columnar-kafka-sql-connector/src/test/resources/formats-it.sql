-- Run by SqlConnectorClusterIT through EmbeddedSqlClient (as bin/sql-client.sh -j <connector jar> -f <this file>),
-- after its placeholders are filled in, on a distribution with Flink's avro format added to lib/. The csv and avro
-- formats through the connector jar: the same rows written by kafka-columnar and by Flink's kafka, then each
-- columnar-written topic read back by kafka-columnar and by Flink's kafka into json. The test compares the pairs.

SET 'parallelism.default' = '2';

CREATE TABLE seq (id BIGINT) WITH (
  'connector' = 'datagen', 'number-of-rows' = '${rows}',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${rows}'
);
-- Inputs that do not flatter the encoders: nulls, negative numbers, decimals, empty strings, a separator, a quote,
-- non-ASCII and non-BMP characters, timestamps from 1950 on. (Without a csv.null-literal Flink writes a null as an
-- empty field, which its csv format then cannot read back as a BIGINT, nor can ours: the same failure.)
CREATE VIEW rows_in AS SELECT
  id,
  CASE WHEN id % 10 = 0 THEN CAST(NULL AS BIGINT) ELSE id * 7919 % 100003 - 50000 END AS bidder,
  CAST(CAST(id * 37 % 100000 AS DECIMAL(12, 2)) / 7 AS DECIMAL(12, 2)) AS price,
  CASE WHEN id % 7 = 0 THEN '' WHEN id % 11 = 0 THEN CAST(NULL AS STRING)
       ELSE CONCAT('ch,"é', CAST(id % 97 AS STRING), U&'\+01F600') END AS channel,
  id % 3 = 0 AS hot,
  TIMESTAMPADD(SECOND, CAST(id * 86400 + id AS INT), TIMESTAMP '1950-01-01 00:00:00.123') AS ts
FROM seq;

CREATE TABLE csv_columnar (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${topic}_csv', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'csv', 'csv.null-literal' = 'null', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${topic}_csv',
  'properties.transaction.timeout.ms' = '60000',
  'properties.group.id' = 'columnar', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'
);
CREATE TABLE csv_stock (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic}_csv_stock', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'csv', 'csv.null-literal' = 'null', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${topic}_csv_stock', 'properties.transaction.timeout.ms' = '60000'
);
-- Flink's kafka reading what kafka-columnar wrote.
CREATE TABLE csv_read_by_stock (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic}_csv', 'properties.bootstrap.servers' = '${servers}', 'format' = 'csv', 'csv.null-literal' = 'null',
  'properties.group.id' = 'stock', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'
);
CREATE TABLE avro_columnar (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${topic}_avro', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'avro', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${topic}_avro',
  'properties.transaction.timeout.ms' = '60000',
  'properties.group.id' = 'columnar', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'
);
CREATE TABLE avro_stock (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic}_avro_stock', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'avro', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${topic}_avro_stock', 'properties.transaction.timeout.ms' = '60000'
);
CREATE TABLE avro_read_by_stock (id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING, hot BOOLEAN,
  ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic}_avro', 'properties.bootstrap.servers' = '${servers}', 'format' = 'avro',
  'properties.group.id' = 'stock', 'scan.startup.mode' = 'earliest-offset', 'scan.bounded.mode' = 'latest-offset'
);
-- json copies of what each side decoded.
CREATE TABLE decoded_columnar (fmt STRING, id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING,
  hot BOOLEAN, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${topic}_decoded', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${topic}_decoded', 'properties.transaction.timeout.ms' = '60000'
);
CREATE TABLE decoded_stock (fmt STRING, id BIGINT, bidder BIGINT, price DECIMAL(12, 2), channel STRING,
  hot BOOLEAN, ts TIMESTAMP(3)) WITH (
  'connector' = 'kafka', 'topic' = '${topic}_decoded_stock', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${topic}_decoded_stock', 'properties.transaction.timeout.ms' = '60000'
);

EXPLAIN JSON_EXECUTION_PLAN INSERT INTO csv_columnar SELECT * FROM rows_in;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO avro_columnar SELECT * FROM rows_in;
EXPLAIN JSON_EXECUTION_PLAN INSERT INTO decoded_columnar
SELECT 'csv', * FROM csv_columnar UNION ALL SELECT 'avro', * FROM avro_columnar;

EXECUTE STATEMENT SET BEGIN
INSERT INTO csv_columnar SELECT * FROM rows_in;
INSERT INTO csv_stock SELECT * FROM rows_in;
INSERT INTO avro_columnar SELECT * FROM rows_in;
INSERT INTO avro_stock SELECT * FROM rows_in;
END;

EXECUTE STATEMENT SET BEGIN
INSERT INTO decoded_columnar SELECT 'csv', * FROM csv_columnar UNION ALL SELECT 'avro', * FROM avro_columnar;
INSERT INTO decoded_stock SELECT 'csv', * FROM csv_read_by_stock UNION ALL SELECT 'avro', * FROM avro_read_by_stock;
END;
