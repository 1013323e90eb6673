package dev.distvm.objectspace;

import java.lang.ref.ReferenceQueue;
import java.lang.ref.WeakReference;

/**
 * A map from objects, compared by identity, to values, that does not keep its keys alive: an
 * entry goes when its key is collected (a value must not reference its key, or it never is).
 * {@code java.util.WeakHashMap} compares with {@code equals}, which application classes may
 * override. Not thread-safe: callers hold their own lock.
 */
final class WeakIdentityMap<K, V> {
    private static final class Entry<K, V> extends WeakReference<K> {
        final int hash;
        V value;
        Entry<K, V> next;

        Entry(K key, int hash, V value, Entry<K, V> next, ReferenceQueue<K> queue) {
            super(key, queue);
            this.hash = hash;
            this.value = value;
            this.next = next;
        }
    }

    private final ReferenceQueue<K> collected = new ReferenceQueue<>();
    private Entry<K, V>[] table = newTable(16);
    private int size;

    V get(K key) {
        expunge();
        int hash = System.identityHashCode(key);
        for (Entry<K, V> e = table[hash & (table.length - 1)]; e != null; e = e.next) {
            if (e.hash == hash && e.get() == key) {
                return e.value;
            }
        }
        return null;
    }

    void put(K key, V value) {
        expunge();
        int hash = System.identityHashCode(key);
        int index = hash & (table.length - 1);
        for (Entry<K, V> e = table[index]; e != null; e = e.next) {
            if (e.hash == hash && e.get() == key) {
                e.value = value;
                return;
            }
        }
        table[index] = new Entry<>(key, hash, value, table[index], collected);
        if (++size > table.length * 3 / 4) {
            resize();
        }
    }

    V remove(K key) {
        expunge();
        int hash = System.identityHashCode(key);
        int index = hash & (table.length - 1);
        Entry<K, V> previous = null;
        for (Entry<K, V> e = table[index]; e != null; previous = e, e = e.next) {
            if (e.hash == hash && e.get() == key) {
                V value = e.value;
                unlink(index, previous, e);
                e.clear();
                return value;
            }
        }
        return null;
    }

    /** The entries whose keys are alive (and some collected a moment ago, until they are expunged). */
    int size() {
        expunge();
        return size;
    }

    /** Drops the entries whose keys were collected (every other operation does it too). */
    void expunge() {
        for (Object gone; (gone = collected.poll()) != null; ) {
            @SuppressWarnings("unchecked")
            Entry<K, V> entry = (Entry<K, V>) gone;
            int index = entry.hash & (table.length - 1);
            Entry<K, V> previous = null;
            for (Entry<K, V> e = table[index]; e != null; previous = e, e = e.next) {
                if (e == entry) {
                    unlink(index, previous, e);
                    break;
                }
            }
        }
    }

    private void unlink(int index, Entry<K, V> previous, Entry<K, V> entry) {
        if (previous == null) {
            table[index] = entry.next;
        } else {
            previous.next = entry.next;
        }
        entry.value = null;
        size--;
    }

    private void resize() {
        Entry<K, V>[] old = table;
        table = newTable(old.length * 2);
        for (Entry<K, V> head : old) {
            for (Entry<K, V> e = head; e != null; ) {
                Entry<K, V> next = e.next;
                int index = e.hash & (table.length - 1);
                e.next = table[index];
                table[index] = e;
                e = next;
            }
        }
    }

    @SuppressWarnings("unchecked")
    private static <K, V> Entry<K, V>[] newTable(int length) {
        return (Entry<K, V>[]) new Entry<?, ?>[length];
    }
}
