package dev.distvm.profile;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class StackTrieTest {
    @Test
    void mergesStacksByTheirOuterFramesAndLeavesOutSmallBranches() {
        StackTrie trie = new StackTrie();
        trie.add(List.of("app.Row.add:9", "app.Worker.run:20", "java.lang.Thread.run"), 30);
        trie.add(List.of("app.Row.get:4", "app.Worker.run:20", "java.lang.Thread.run"), 10);
        trie.add(List.of("app.Log.note:2", "java.lang.Thread.run"), 1);
        StringBuilder json = new StringBuilder();
        trie.appendJson("all", 5, json);
        assertEquals("{\"name\": \"all\", \"value\": 41, \"children\": [{\"name\": \"java.lang.Thread.run\", \"value\": 41,"
                + " \"children\": [{\"name\": \"app.Worker.run:20\", \"value\": 40, \"children\": ["
                + "{\"name\": \"app.Row.add:9\", \"value\": 30, \"children\": []}, "
                + "{\"name\": \"app.Row.get:4\", \"value\": 10, \"children\": []}]}]}]}", json.toString());
    }

    @Test
    void takesTheCallersStackWithoutTheProfilersFrames() {
        StackTrie trie = new StackTrie();
        trie.addCurrentStack();
        StringBuilder json = new StringBuilder();
        trie.appendJson("all", 1, json);
        assertTrue(json.toString().contains("StackTrieTest.takesTheCallersStackWithoutTheProfilersFrames"), json.toString());
        assertTrue(!json.toString().contains("StackTrie.addCurrentStack"), json.toString());
    }
}
