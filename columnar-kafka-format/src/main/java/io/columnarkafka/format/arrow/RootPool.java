package io.columnarkafka.format.arrow;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import org.apache.arrow.memory.BufferAllocator;
import org.apache.arrow.vector.FieldVector;
import org.apache.arrow.vector.VectorSchemaRoot;
import org.apache.arrow.vector.types.pojo.Field;
import org.apache.arrow.vector.types.pojo.Schema;

/**
 * A decoder's empty vector trees of one schema, reused from batch to batch: building the tree ({@code
 * VectorSchemaRoot.create}: a vector object per field and nested child, each made from its {@code Field}) is a
 * fixed cost per batch that small batches feel. Only the Java objects are reused, never memory: a batch's
 * buffers are freed when its owner closes it, as before, so allocators still close at zero.
 *
 * <p>Ownership is unchanged. The root {@link #root} returns belongs to the batch's owner, who may keep it past
 * the next decode, hand it downstream, take its vectors over or close it from another thread. Its tree comes back
 * to the pool only when the owner closes the root itself: {@link VectorSchemaRoot#close()} then frees the buffers
 * ({@code clear()}, which keeps nested children, where a vector's {@code close()} drops them) and returns the
 * vector objects. Closing it again is a no-op, so a second close of a stale root can never free a later batch
 * that reuses the tree (each batch gets a root object of its own). A root whose vectors were moved into another
 * root and never closed simply never comes back. A tree is reused only if it is still exactly the tree that was
 * built (someone may have closed a nested vector, which empties it of its children) and lives in the allocator
 * asked for.
 *
 * <p>Thread-safe: a batch may be closed on another thread than the one that decodes.
 */
public final class RootPool {
    /** Trees kept for reuse; more batches than this in flight at once build the rest anew. */
    private static final int KEPT = 4;

    private final Schema schema;
    private final ArrayBlockingQueue<Tree> free = new ArrayBlockingQueue<>(KEPT);

    public RootPool(Schema schema) {
        this.schema = schema;
    }

    /** An empty root of the pool's schema in {@code allocator}, owned by the caller (nothing allocated yet). */
    public VectorSchemaRoot root(BufferAllocator allocator) {
        Tree tree;
        while ((tree = free.poll()) != null) {
            if (tree.allocator == allocator && tree.intact()) {
                return new PooledRoot(tree);
            }
        }
        return new PooledRoot(new Tree(schema, allocator));
    }

    /** The vector objects of one root, as built, with the shape they had then (see {@link #intact()}). */
    private final class Tree {
        final BufferAllocator allocator;
        final List<FieldVector> vectors;
        /** Every vector of the tree, depth first, and how many children each had when built. */
        final FieldVector[] all;
        final int[] childCounts;

        Tree(Schema schema, BufferAllocator allocator) {
            this.allocator = allocator;
            List<Field> fields = schema.getFields();
            this.vectors = new ArrayList<>(fields.size());
            List<FieldVector> flat = new ArrayList<>();
            try {
                for (Field field : fields) {
                    vectors.add(field.createVector(allocator));
                }
            } catch (RuntimeException e) {
                vectors.forEach(FieldVector::close);
                throw e;
            }
            vectors.forEach(v -> flatten(v, flat));
            this.all = flat.toArray(new FieldVector[0]);
            this.childCounts = new int[all.length];
            for (int i = 0; i < all.length; i++) {
                childCounts[i] = all[i].getChildrenFromFields().size();
            }
        }

        private void flatten(FieldVector v, List<FieldVector> into) {
            into.add(v);
            v.getChildrenFromFields().forEach(child -> flatten(child, into));
        }

        /** True if every vector still has the children it was built with (the same objects, in order). */
        boolean intact() {
            int at = 0;
            for (FieldVector v : vectors) {
                at = matches(v, at);
                if (at < 0) {
                    return false;
                }
            }
            return at == all.length;
        }

        /** Checks {@code v} as tree vector {@code at} with its children: the index after them, or -1. */
        private int matches(FieldVector v, int at) {
            if (at >= all.length || v != all[at]) {
                return -1;
            }
            List<FieldVector> children = v.getChildrenFromFields();
            if (children.size() != childCounts[at]) {
                return -1;
            }
            int next = at + 1;
            for (FieldVector child : children) {
                next = matches(child, next);
                if (next < 0) {
                    return -1;
                }
            }
            return next;
        }
    }

    /** A root over a pooled tree: its first close frees the buffers and returns the tree, later ones do nothing. */
    private final class PooledRoot extends VectorSchemaRoot {
        private final Tree tree;
        private boolean closed;

        PooledRoot(Tree tree) {
            super(schema, tree.vectors, 0);
            this.tree = tree;
        }

        @Override
        public void close() {
            if (closed) {
                return;
            }
            closed = true;
            clear();
            free.offer(tree);
        }
    }
}
