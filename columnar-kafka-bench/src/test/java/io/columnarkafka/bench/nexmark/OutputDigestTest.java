package io.columnarkafka.bench.nexmark;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/**
 * The Top-N queries' output check leaves out exactly the columns their ROW_NUMBER leaves open on a tie: two
 * values that differ only there compare equal, a difference anywhere else still fails, and the columns left
 * out are result columns of the query that are neither its upsert key nor its ORDER BY.
 */
class OutputDigestTest {
    private static final Pattern PRIMARY_KEY = Pattern.compile("PRIMARY KEY \\(([^)]*)\\)");
    private static final Pattern ORDER_BY = Pattern.compile("ORDER BY ([^)]*)\\)");

    @Test
    void aTiedWinnersOtherColumnsAreLeftOutAndNothingElse() {
        String won = "{\"id\":1220,\"price\":44067612,\"bidder\":1036,\"bid_extra\":\"xm\"}";
        String tiedWinner = "{\"id\":1220,\"price\":44067612,\"bidder\":1001,\"bid_extra\":\"xm\"}";
        String otherPrice = "{\"id\":1220,\"price\":44067611,\"bidder\":1036,\"bid_extra\":\"xm\"}";
        List<String> open = NexmarkQuery.Q9.openOnTie;

        assertThat(OutputDigest.without(open, won)).isEqualTo(OutputDigest.without(open, tiedWinner))
                .isEqualTo("{\"id\":1220,\"price\":44067612}");
        assertThat(OutputDigest.without(open, otherPrice)).isNotEqualTo(OutputDigest.without(open, won));
        assertThat(OutputDigest.without(NexmarkQuery.Q4.openOnTie, won)).as("no Top-N: the value as written")
                .isEqualTo(won);
    }

    @Test
    void theColumnsLeftOutAreResultColumnsOutsideTheKeyAndTheOrderBy() {
        List<NexmarkQuery> topN = Arrays.stream(NexmarkQuery.values()).filter(q -> !q.openOnTie.isEmpty()).toList();
        assertThat(topN).containsExactly(NexmarkQuery.Q9, NexmarkQuery.Q19);
        for (NexmarkQuery query : topN) {
            String sql = NexmarkSql.resource("nexmark/" + query.id() + ".sql");
            String table = sql.substring(sql.indexOf("CREATE TABLE"), sql.indexOf("WITH"));
            String key = group(PRIMARY_KEY, sql);
            String orderBy = group(ORDER_BY, sql);
            for (String column : query.openOnTie) {
                assertThat(table).as(query.id()).containsPattern("[\\s(`]" + column + "`? ");
                assertThat(key).as(query.id() + " key").doesNotContainPattern("\\b" + column + "\\b");
                assertThat(orderBy.toLowerCase(Locale.ROOT)).as(query.id() + " ORDER BY")
                        .doesNotContainPattern("\\b" + column.toLowerCase(Locale.ROOT) + "\\b");
            }
        }
    }

    private static String group(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        assertThat(m.find()).as(pattern.pattern()).isTrue();
        return m.group(1);
    }
}
