/**
 * The engine SPI: what core's bulk paths need and nothing else — the loader, the rebuilder and the
 * Spark shard writer use it; applications, the CLI and the server use the API ({@code
 * dev.idxkit.core}, {@code dev.idxkit.core.schema}) only. Everything under {@code
 * dev.idxkit.core.internal} is free to change; an ArchUnit test ({@code ArchitectureTest} in
 * src-test) fails the build when a module reaches past its ring.
 *
 * <h2>Contract</h2>
 *
 * <ul>
 *   <li><b>Entry</b>: {@link dev.idxkit.core.spi.Engine#of}{@code (database)}.
 *   <li><b>Reading</b> the published state: under {@link dev.idxkit.core.spi.Engine#readLock()},
 *       {@link dev.idxkit.core.spi.MetaState} (per-table {@link dev.idxkit.core.spi.PageRuns},
 *       per-index {@link dev.idxkit.core.spi.IndexState}), pages through {@link
 *       dev.idxkit.core.spi.PageAccess}, heap records through {@link dev.idxkit.core.spi.HeapPage}
 *       and {@link dev.idxkit.core.spi.Overflow}, keys through {@link
 *       dev.idxkit.core.spi.KeyExtractor} / {@link dev.idxkit.core.spi.KeyEncoder} into
 *       memcmp-ordered bytes compared with {@link dev.idxkit.core.spi.Keys}.
 *   <li><b>Writing</b>: one {@link dev.idxkit.core.spi.BulkWrite} at a time (it holds the writer).
 *       It allocates only pages past an area's high-water mark or free in the published meta, so
 *       nothing the published state references is ever overwritten. Heap rows go through {@link
 *       dev.idxkit.core.spi.HeapAppender}; an index tree is written bottom-up from entries in
 *       strictly ascending order by {@link dev.idxkit.core.spi.TreeBuilder} (into a {@link
 *       dev.idxkit.core.spi.PageSink}).
 *   <li><b>Publishing</b>: {@link dev.idxkit.core.spi.BulkWrite#publish} writes the next meta slot
 *       with the new high-water marks, table pages, index roots and states, and resume points, in
 *       one write. Before it, a crash leaves the database exactly as at the previous publish; after
 *       it, the old pages of replaced trees are free.
 *   <li><b>Stability</b>: these types change only with the store's format version; the page and
 *       record layouts they expose are drawn in their class comments.
 * </ul>
 */
package dev.idxkit.core.spi;
