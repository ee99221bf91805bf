package orrery.sdk;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A freshly started {@code orrery serve --port 0 --no-tls} process, in memory or on disk
 * (system property {@code orrery.storage}, from ORRERY_SDK_STORAGE: memory | disk), with
 * the binary from ORRERY_BIN. Its output is drained continuously; the last lines are kept
 * for failure reports. Closing kills it and removes its data directory.
 */
public final class OrreryServer implements AutoCloseable {
    private static final Pattern LISTENING =
        Pattern.compile("listening on (https?)://([^\\s/]+):(\\d+)/");

    private final Process process;
    private final Path dataDir;
    private final String endpoint;
    private final Deque<String> tail = new ArrayDeque<>();

    public static String storage() {
        String s = System.getProperty("orrery.storage", System.getenv().getOrDefault("ORRERY_SDK_STORAGE", "memory"));
        if (!s.equals("memory") && !s.equals("disk")) {
            throw new IllegalArgumentException("orrery.storage must be memory or disk, not " + s);
        }
        return s;
    }

    public static OrreryServer start(String... extraArgs) {
        try {
            return new OrreryServer(extraArgs);
        } catch (IOException e) {
            throw new IllegalStateException("could not start orrery: " + e, e);
        }
    }

    private OrreryServer(String... extraArgs) throws IOException {
        String bin = System.getenv("ORRERY_BIN");
        if (bin == null || bin.isEmpty()) {
            throw new IllegalStateException("ORRERY_BIN must name the orrery binary");
        }
        List<String> cmd = new ArrayList<>(List.of(bin, "serve", "--port", "0", "--no-tls", "--log-level", "warn"));
        if (storage().equals("disk")) {
            dataDir = Files.createTempDirectory("orrery-java-sdk-");
            cmd.add("--data-dir");
            cmd.add(dataDir.toString());
        } else {
            dataDir = null;
            cmd.add("--in-memory");
        }
        cmd.addAll(List.of(extraArgs));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        process = pb.start();
        CompletableFuture<String> found = new CompletableFuture<>();
        Thread drain = new Thread(() -> drain(process.getInputStream(), found), "orrery-output");
        drain.setDaemon(true);
        drain.start();
        String ep;
        try {
            ep = found.get(15, TimeUnit.SECONDS);
        } catch (Exception e) {
            close();
            throw new IllegalStateException("orrery did not print its listening line within 15 s: " + cmd
                + "\noutput:\n" + tail(), e);
        }
        endpoint = ep;
    }

    private void drain(InputStream in, CompletableFuture<String> found) {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                synchronized (tail) {
                    tail.addLast(line);
                    if (tail.size() > 50) tail.removeFirst();
                }
                Matcher m = LISTENING.matcher(line);
                if (!found.isDone() && m.find()) {
                    found.complete(m.group(1) + "://" + m.group(2) + ":" + m.group(3) + "/");
                }
            }
        } catch (IOException ignored) {
            // the process ended
        } finally {
            found.completeExceptionally(new IllegalStateException("orrery's output ended"));
        }
    }

    /** The endpoint the SDK is pointed at, e.g. http://127.0.0.1:40123/. */
    public String endpoint() {
        return endpoint;
    }

    /** The server's last output lines, for failure reports. */
    public String tail() {
        synchronized (tail) {
            return String.join("\n", tail);
        }
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                process.waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
        if (dataDir != null) {
            try (Stream<Path> walk = Files.walk(dataDir)) {
                walk.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            } catch (IOException ignored) {
                // best effort
            }
        }
    }
}
