package orrery.sdk.scenarios;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/** JSON equality as the scenario file means it: numbers compared as numbers (2 == 2.0). */
public final class Json {
    private Json() {}

    public static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) return a.decimalValue().compareTo(b.decimalValue()) == 0;
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) return false;
            for (int i = 0; i < a.size(); i++) if (!same(a.get(i), b.get(i))) return false;
            return true;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) return false;
            for (Iterator<Map.Entry<String, JsonNode>> it = a.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                JsonNode other = b.get(e.getKey());
                if (other == null || !same(e.getValue(), other)) return false;
            }
            return true;
        }
        return a.equals(b);
    }

    public static boolean sameInOrder(List<JsonNode> expected, List<JsonNode> actual) {
        if (expected.size() != actual.size()) return false;
        for (int i = 0; i < expected.size(); i++) if (!same(expected.get(i), actual.get(i))) return false;
        return true;
    }

    public static boolean sameMultiset(List<JsonNode> expected, List<JsonNode> actual) {
        if (expected.size() != actual.size()) return false;
        List<JsonNode> left = new ArrayList<>(actual);
        for (JsonNode e : expected) {
            boolean found = false;
            for (int i = 0; i < left.size(); i++) {
                if (same(e, left.get(i))) {
                    left.remove(i);
                    found = true;
                    break;
                }
            }
            if (!found) return false;
        }
        return true;
    }
}
