CREATE TABLE nexmark_q19 (
    auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, `dateTime` TIMESTAMP(3), extra STRING,
    rank_number BIGINT,
    PRIMARY KEY (auction, rank_number) NOT ENFORCED
) WITH (${SINK});
INSERT INTO nexmark_q19
SELECT * FROM
(SELECT *, ROW_NUMBER() OVER (PARTITION BY auction ORDER BY price DESC) AS rank_number FROM bid)
WHERE rank_number <= 10;
