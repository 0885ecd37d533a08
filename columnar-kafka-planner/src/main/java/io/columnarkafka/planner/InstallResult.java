package io.columnarkafka.planner;

/**
 * What {@link ColumnarSql#install} did and why.
 *
 * @param status the outcome
 * @param message a sentence for a person: what was installed, or why nothing was
 */
public record InstallResult(InstallStatus status, String message) {

    /** True when the stage runs for the environment's queries. */
    public boolean installed() {
        return status == InstallStatus.INSTALLED || status == InstallStatus.ALREADY_INSTALLED;
    }
}
