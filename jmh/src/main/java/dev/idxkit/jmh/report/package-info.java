/**
 * Result files for {@code idxkit bench} experiments and side-by-side runs: CSV and JSON for the
 * figures, PNG for the charts, and the machine they were measured on.
 *
 * <p>Use: collect rows in a {@link dev.idxkit.jmh.report.Results} (named columns, parameters,
 * notes), describe a {@link dev.idxkit.jmh.report.Chart} over them, hand both to a {@link
 * dev.idxkit.jmh.report.ResultWriter} opened on the output directory, and end with {@code
 * printFiles(System.out)} so the user sees where everything went. {@link
 * dev.idxkit.jmh.report.ResultWriter} documents both file layouts.
 *
 * <p>Conventions: column names are lower case with the unit in the name ({@code chunk_bytes},
 * {@code mib_per_s}, {@code seconds}); experiments round their figures to what the measurement can
 * support before adding them; every experiment writes its results after each step, so an
 * interrupted run keeps what it had measured.
 */
package dev.idxkit.jmh.report;
