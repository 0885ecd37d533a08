package io.columnarkafka.bench;

import java.util.Properties;

/**
 * A benchmark job's steady-state rates ({@link SteadyRate}, sampled by {@link JobProgress}): of the input the
 * sources read and of the output the sink writers sent, in events per second, with their windows in seconds after
 * the job entered RUNNING. The steady rate is the slower of the two, so a sink lagging behind its sources
 * (records read but not yet written, e.g. held in a mini-batch) cannot flatter it; NaN for a job not measured
 * (a Nexmark recovery cell) or whose progress did not cross both levels.
 */
public record SteadyFigures(double readEventsPerSecond, double writtenEventsPerSecond, double readFromSeconds,
                     double readToSeconds, double writtenFromSeconds, double writtenToSeconds) {
    public static final SteadyFigures NONE = new SteadyFigures(Double.NaN, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            Double.NaN);

    /** The slower of read and written; NaN if either is unknown. */
    public double eventsPerSecond() {
        return Double.isNaN(readEventsPerSecond) || Double.isNaN(writtenEventsPerSecond) ? Double.NaN
                : Math.min(readEventsPerSecond, writtenEventsPerSecond);
    }

    /** Which side the steady rate is: {@code read} or {@code written} (the slower), {@code –} if unknown. */
    public String limitedBy() {
        return Double.isNaN(eventsPerSecond()) ? "–" : writtenEventsPerSecond < readEventsPerSecond ? "written" : "read";
    }

    /**
     * What the job's time holds beyond processing {@code events} at the steady rate: {@code jobSeconds} − events /
     * steady rate (start-up, the drain and the final checkpoint wait, and any slower stretch in between).
     */
    public double fixedSeconds(double jobSeconds, long events) {
        return jobSeconds - events / eventsPerSecond();
    }

    public void store(Properties result) {
        result.setProperty("steadyReadEventsPerSecond", Double.toString(readEventsPerSecond));
        result.setProperty("steadyWrittenEventsPerSecond", Double.toString(writtenEventsPerSecond));
        result.setProperty("steadyReadWindow", readFromSeconds + " " + readToSeconds);
        result.setProperty("steadyWrittenWindow", writtenFromSeconds + " " + writtenToSeconds);
    }

    public static SteadyFigures load(Properties p) {
        if (p.getProperty("steadyReadEventsPerSecond") == null) {
            return NONE;
        }
        String[] read = p.getProperty("steadyReadWindow").split(" ");
        String[] written = p.getProperty("steadyWrittenWindow").split(" ");
        return new SteadyFigures(Double.parseDouble(p.getProperty("steadyReadEventsPerSecond")),
                Double.parseDouble(p.getProperty("steadyWrittenEventsPerSecond")), Double.parseDouble(read[0]),
                Double.parseDouble(read[1]), Double.parseDouble(written[0]), Double.parseDouble(written[1]));
    }
}
