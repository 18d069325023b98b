package dev.idxkit.core.spi;

/**
 * What {@link TreeBuilder#finish} built.
 *
 * @param root root page number, to publish as the index's root
 * @param height levels, 1 for a single leaf
 * @param pagesWritten pages handed to the sink
 * @param entries entries added
 */
public record BuildResult(long root, int height, long pagesWritten, long entries) {}
