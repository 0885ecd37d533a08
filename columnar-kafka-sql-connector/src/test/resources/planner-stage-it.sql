-- Run by PlannerStageClusterIT through EmbeddedSqlClient (as bin/sql-client.sh -j <connector jar> -f <this file>),
-- after its placeholders are filled in, on a distribution whose lib/ has Flink's planner jar in place of the planner loader.
-- Every job goes to the standalone cluster. Each query runs twice: through the kafka-columnar connectors, planned by
-- the columnar stage, and through Flink's own kafka connectors (the oracle; the stage leaves those plans Flink's).

SET 'columnar-kafka.planner.enabled' = 'true';
SET 'parallelism.default' = '2';

CREATE TABLE nexmark (${nexmark_columns}) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${input}', 'properties.bootstrap.servers' = '${servers}',
  'properties.group.id' = 'columnar', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json'
);
CREATE TABLE nexmark_stock (${nexmark_columns}) WITH (
  'connector' = 'kafka', 'topic' = '${input}', 'properties.bootstrap.servers' = '${servers}',
  'properties.group.id' = 'stock', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json'
);
CREATE VIEW bid AS
SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, bid.`dateTime`, bid.extra
FROM nexmark WHERE event_type = 2;
CREATE VIEW bid_stock AS
SELECT bid.auction, bid.bidder, bid.price, bid.channel, bid.url, bid.`dateTime`, bid.extra
FROM nexmark_stock WHERE event_type = 2;

-- Nexmark q1: columnar from scan to sink.
CREATE TABLE q1 (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra STRING) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${q1_topic}', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${q1_topic}',
  'properties.transaction.timeout.ms' = '60000'
);
CREATE TABLE q1_stock (auction BIGINT, bidder BIGINT, price DECIMAL(23, 3), `dateTime` TIMESTAMP(3), extra STRING)
WITH (
  'connector' = 'kafka', 'topic' = '${q1_topic}_stock', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${q1_topic}_stock', 'properties.transaction.timeout.ms' = '60000'
);

-- Bids per bidder: a columnar scan and calc, the edge to Flink's group aggregate, the columnar row sink.
CREATE TABLE counts (bidder BIGINT, bids BIGINT, PRIMARY KEY (bidder) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka-columnar', 'topic' = '${counts_topic}', 'properties.bootstrap.servers' = '${servers}',
  'key.format' = 'json', 'value.format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${counts_topic}', 'properties.transaction.timeout.ms' = '60000'
);
CREATE TABLE counts_stock (bidder BIGINT, bids BIGINT, PRIMARY KEY (bidder) NOT ENFORCED) WITH (
  'connector' = 'upsert-kafka', 'topic' = '${counts_topic}_stock', 'properties.bootstrap.servers' = '${servers}',
  'key.format' = 'json', 'value.format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${counts_topic}_stock', 'properties.transaction.timeout.ms' = '60000'
);

-- Bids per auction in hopping event-time windows (Nexmark q5's inner count): a columnar scan with its watermark, the
-- columnar local window aggregate, Flink's global one.
CREATE TABLE nexmark_wm (${nexmark_columns},
  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime`
    ELSE bid.`dateTime` END,
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${input}', 'properties.bootstrap.servers' = '${servers}',
  'properties.group.id' = 'columnar', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json'
);
CREATE TABLE nexmark_wm_stock (${nexmark_columns},
  `dateTime` AS CASE WHEN event_type = 0 THEN person.`dateTime` WHEN event_type = 1 THEN auction.`dateTime`
    ELSE bid.`dateTime` END,
  WATERMARK FOR `dateTime` AS `dateTime` - INTERVAL '4' SECOND
) WITH (
  'connector' = 'kafka', 'topic' = '${input}', 'properties.bootstrap.servers' = '${servers}',
  'properties.group.id' = 'stock', 'scan.startup.mode' = 'earliest-offset',
  'scan.bounded.mode' = 'latest-offset', 'format' = 'json'
);
CREATE VIEW bid_wm AS SELECT bid.auction, `dateTime` FROM nexmark_wm WHERE event_type = 2;
CREATE VIEW bid_wm_stock AS SELECT bid.auction, `dateTime` FROM nexmark_wm_stock WHERE event_type = 2;
CREATE TABLE windows (auction BIGINT, window_end TIMESTAMP(3), bids BIGINT) WITH (
  'connector' = 'kafka-columnar', 'topic' = '${windows_topic}', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once', 'sink.transactional-id-prefix' = '${windows_topic}',
  'properties.transaction.timeout.ms' = '60000'
);
CREATE TABLE windows_stock (auction BIGINT, window_end TIMESTAMP(3), bids BIGINT) WITH (
  'connector' = 'kafka', 'topic' = '${windows_topic}_stock', 'properties.bootstrap.servers' = '${servers}',
  'format' = 'json', 'sink.delivery-guarantee' = 'exactly-once',
  'sink.transactional-id-prefix' = '${windows_topic}_stock', 'properties.transaction.timeout.ms' = '60000'
);

EXPLAIN INSERT INTO q1 SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid;
EXPLAIN INSERT INTO counts SELECT bidder, COUNT(*) AS bids FROM bid GROUP BY bidder;
EXPLAIN INSERT INTO windows SELECT auction, window_end, COUNT(*) AS bids
FROM TABLE(HOP(TABLE bid_wm, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;

INSERT INTO q1 SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid;
INSERT INTO q1_stock SELECT auction, bidder, 0.908 * price AS price, `dateTime`, extra FROM bid_stock;
INSERT INTO counts SELECT bidder, COUNT(*) AS bids FROM bid GROUP BY bidder;
INSERT INTO counts_stock SELECT bidder, COUNT(*) AS bids FROM bid_stock GROUP BY bidder;
INSERT INTO windows SELECT auction, window_end, COUNT(*) AS bids
FROM TABLE(HOP(TABLE bid_wm, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
INSERT INTO windows_stock SELECT auction, window_end, COUNT(*) AS bids
FROM TABLE(HOP(TABLE bid_wm_stock, DESCRIPTOR(`dateTime`), INTERVAL '2' SECOND, INTERVAL '10' SECOND))
GROUP BY auction, window_start, window_end;
