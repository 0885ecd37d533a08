-- Run by SqlConnectorClusterIT through EmbeddedSqlClient (as bin/sql-client.sh -j <connector jar> -f <this file>),
-- after its placeholders are filled in. Every job goes to the standalone cluster.

-- The columnar planner stage, asked for on a distribution with the planner loader: the kafka-columnar factories
-- log why it is not installed and the queries run as without it (docs/planner.md).
SET 'columnar-kafka.planner.enabled' = 'true';
CREATE TABLE bids_src (
  id BIGINT, bidder BIGINT, price BIGINT, channel STRING
) WITH (
  'connector' = 'datagen', 'number-of-rows' = '${rows}',
  'fields.id.kind' = 'sequence', 'fields.id.start' = '1', 'fields.id.end' = '${rows}',
  'fields.channel.length' = '8'
);

CREATE TABLE bids (
  id BIGINT, bidder BIGINT, price BIGINT, channel STRING
) WITH (
  'connector' = 'kafka-columnar',
  'topic' = '${topic}',
  'properties.bootstrap.servers' = '${servers}',
  'properties.transaction.timeout.ms' = '60000',
  'key.format' = 'json', 'key.fields' = 'id',
  'value.format' = 'json',
  'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${topic}'
);

CREATE TABLE bids_by_id (
  id BIGINT, bidder BIGINT, price BIGINT, channel STRING,
  PRIMARY KEY (id) NOT ENFORCED
) WITH (
  'connector' = 'upsert-kafka-columnar',
  'topic' = '${upsert_topic}',
  'properties.bootstrap.servers' = '${servers}',
  'key.format' = 'json',
  'value.format' = 'json'
);

EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bids SELECT * FROM bids_src;

EXPLAIN JSON_EXECUTION_PLAN INSERT INTO bids_by_id SELECT * FROM bids_src;

INSERT INTO bids SELECT * FROM bids_src;

INSERT INTO bids_by_id SELECT * FROM bids_src;
