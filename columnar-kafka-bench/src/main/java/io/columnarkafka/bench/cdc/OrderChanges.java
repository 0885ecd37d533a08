package io.columnarkafka.bench.cdc;

import io.columnarkafka.bench.cdc.ChangeEvent.Op;
import java.math.BigDecimal;
import java.time.LocalDateTime;
import java.util.SplittableRandom;

/**
 * The CDC benchmark's input: Debezium's change events of an {@code orders} table, deterministic for a seed. The
 * first tenth of the records is the initial snapshot (op {@code r}, ids in order); after it, each record changes a
 * random row (a fifth of the picks go to a hot 1 % of the ids, as orders being worked on are): an absent row is
 * created ({@code c}), a present one updated ({@code u}, before and after, a few columns changed) or, one time in
 * nine, deleted ({@code d}), and every delete is followed by Debezium's tombstone. About one id per five records.
 *
 * <p>The values do not flatter a decoder: text with JSON escapes (quotes, backslashes, control characters), non-ASCII
 * and non-BMP characters, nulls in every nullable column, negative quantities, amounts with 0 to 2 significant
 * fraction digits, and creation times from 1940 to 2039 (3 in 10 before 1970), some on whole seconds.
 */
final class OrderChanges {
    private static final String[] FIRST = {"Anna", "Zoë", "José", "Łukasz", "O'Brien", "Chloé", "Søren", "Mía",
        "李", "Дмитрий", "محمد", "Ngozi", "Quote \"Q\"", "Back\\slash", "Tab\tbed", "😀 Smiley", "𝔊𝔬𝔱𝔥", "Ana María",
        "Jürgen", "Bell\u0007"};
    private static final String[] LAST = {"Smith", "Müller", "García", "Nguyễn", "雷", "Kowalski", "Иванов", "Ōta",
        "d'Arc", "van der Berg", "🚀 Rocket", "Line\nBreak", "Ñúñez", "Øster", "Da Silva", "Ólafsson"};
    private static final String[] STATUS = {"NEW", "PAID", "PACKED", "SHIPPED", "DELIVERED", "CANCELLED", "RETURNED"};
    private static final String[] NOTE_WORDS = {"leave", "at", "the", "door", "please", "ring", "twice", "fragile",
        "gift", "wrap", "\"urgent\"", "C:\\orders\\", "naïve", "café", "€12", "📦", "𝄞", "floor 3", "n/a", "ok"};
    /** 1940-01-01 to 2039-12-31 in seconds from the epoch, the range of creation times. */
    private static final long FIRST_CREATED = LocalDateTime.of(1940, 1, 1, 0, 0).toEpochSecond(java.time.ZoneOffset.UTC);
    private static final long CREATED_SPAN = 100L * 365 * 86_400;
    /** The ids are above Integer.MAX_VALUE, as a table's BIGINT keys may be. */
    private static final long FIRST_ID = 5_000_000_000L;

    private final SplittableRandom random;
    private final int ids;
    private final long snapshotRecords;
    private final OrderRow[] rows;
    private long sequence;
    private int snapshotted;
    /** The id of a delete whose tombstone is the next record, or -1. */
    private long pendingTombstone = -1;

    /** The generator of a topic of {@code records} records (ids and snapshot scale with it). */
    OrderChanges(long seed, long records) {
        this.random = new SplittableRandom(seed);
        this.ids = (int) Math.max(1, records / 5);
        this.snapshotRecords = records / 10;
        this.rows = new OrderRow[ids];
    }

    /** The next record of the topic. */
    ChangeEvent next() {
        long at = sequence++;
        if (pendingTombstone >= 0) {
            long id = pendingTombstone;
            pendingTombstone = -1;
            return new ChangeEvent(at, Op.TOMBSTONE, id, null, null);
        }
        if (at < snapshotRecords && snapshotted < ids) {
            int index = snapshotted++;
            rows[index] = newRow(index);
            return new ChangeEvent(at, Op.READ, rows[index].id(), null, rows[index]);
        }
        int index = random.nextInt(5) == 0 ? random.nextInt(Math.max(1, ids / 100)) : random.nextInt(ids);
        OrderRow before = rows[index];
        if (before == null) {
            rows[index] = newRow(index);
            return new ChangeEvent(at, Op.CREATE, rows[index].id(), null, rows[index]);
        }
        if (random.nextInt(9) == 0) {
            rows[index] = null;
            pendingTombstone = before.id();
            return new ChangeEvent(at, Op.DELETE, before.id(), before, null);
        }
        rows[index] = updated(before);
        return new ChangeEvent(at, Op.UPDATE, before.id(), before, rows[index]);
    }

    private OrderRow newRow(int index) {
        return new OrderRow(FIRST_ID + index, nullOr(30, this::customer), nullOr(50, this::amount), created(),
                nullOr(30, this::quantity), nullOr(20, random::nextBoolean), STATUS[random.nextInt(2)],
                nullOr(3, this::note));
    }

    /** An order moving on: its status, and often its payment, amount, quantity or note. */
    private OrderRow updated(OrderRow row) {
        return new OrderRow(row.id(), row.customer(),
                random.nextInt(3) == 0 ? nullOr(50, this::amount) : row.amount(), row.created(),
                random.nextInt(4) == 0 ? nullOr(30, this::quantity) : row.quantity(),
                random.nextInt(2) == 0 ? nullOr(20, random::nextBoolean) : row.paid(),
                STATUS[random.nextInt(STATUS.length)],
                random.nextInt(5) == 0 ? nullOr(3, this::note) : row.note());
    }

    /** One customer name of a pool of 320 (the aggregate's groups). */
    private String customer() {
        return FIRST[random.nextInt(FIRST.length)] + " " + LAST[random.nextInt(LAST.length)];
    }

    /** 0.00 to 99,999.99 in cents: one in ten ends in a zero, one in a hundred is whole (12.50, 700.00). */
    private BigDecimal amount() {
        return BigDecimal.valueOf(random.nextLong(10_000_000), 2);
    }

    /** Mostly 1 to 20, sometimes up to 10,000, now and then negative (a return). */
    private Integer quantity() {
        int kind = random.nextInt(20);
        return kind == 0 ? -1 - random.nextInt(5) : kind == 1 ? random.nextInt(10_001) : 1 + random.nextInt(20);
    }

    /** Millisecond precision, one in eight on a whole second. */
    private LocalDateTime created() {
        long second = FIRST_CREATED + random.nextLong(CREATED_SPAN);
        int millis = random.nextInt(8) == 0 ? 0 : random.nextInt(1000);
        return LocalDateTime.ofEpochSecond(second, millis * 1_000_000, java.time.ZoneOffset.UTC);
    }

    private String note() {
        StringBuilder note = new StringBuilder();
        for (int words = 3 + random.nextInt(12); words > 0; words--) {
            note.append(NOTE_WORDS[random.nextInt(NOTE_WORDS.length)]).append(words > 1 ? " " : "");
        }
        return note.toString();
    }

    /** Null one time in {@code oneIn}, else the value. */
    private <T> T nullOr(int oneIn, java.util.function.Supplier<T> value) {
        return random.nextInt(oneIn) == 0 ? null : value.get();
    }
}
