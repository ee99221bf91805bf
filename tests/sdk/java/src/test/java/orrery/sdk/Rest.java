package orrery.sdk;

import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Base64;
import java.util.Locale;
import java.util.Map;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Requests the SDK cannot make (and Orrery's own admin calls): signed with the master key
 * as the REST API documents.
 */
final class Rest {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private static final DateTimeFormatter RFC1123 =
        DateTimeFormatter.ofPattern("EEE, dd MMM yyyy HH:mm:ss 'GMT'", Locale.US);

    private Rest() {}

    /**
     * authorization = URL-encoded "type=master&ver=1.0&sig=" + base64(HMAC-SHA256(key,
     * verb + "\n" + resourceType + "\n" + resourceLink + "\n" + date + "\n\n")), verb and
     * date lowercased.
     */
    static HttpResponse<String> send(OrreryServer server, String verb, String path, String resourceType,
                                     String resourceLink, Map<String, String> headers, String body)
        throws IOException, InterruptedException {
        String date = ZonedDateTime.now(ZoneOffset.UTC).format(RFC1123);
        String text = verb.toLowerCase(Locale.ROOT) + "\n" + resourceType + "\n" + resourceLink + "\n"
            + date.toLowerCase(Locale.ROOT) + "\n\n";
        String signature;
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(Base64.getDecoder().decode(Sdk.KEY), "HmacSHA256"));
            signature = Base64.getEncoder().encodeToString(mac.doFinal(text.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.GeneralSecurityException e) {
            throw new IllegalStateException(e);
        }
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.endpoint() + path))
            .timeout(Duration.ofSeconds(30))
            .header("x-ms-date", date)
            .header("authorization", URLEncoder.encode("type=master&ver=1.0&sig=" + signature, StandardCharsets.UTF_8))
            .method(verb, body == null ? HttpRequest.BodyPublishers.noBody()
                : HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8));
        if (body != null && !headers.containsKey("Content-Type")) b.header("Content-Type", "application/json");
        headers.forEach(b::header);
        return HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
    }

    /**
     * Orrery's admin call for a container's throughput (buckets, enforcement):
     * {@code PUT /_orrery/dbs/{db}/colls/{coll}/throughput} with {@code body}, or a GET when
     * {@code body} is null; signed with resource type {@code _orrery} and the path as its link.
     */
    static HttpResponse<String> containerThroughput(OrreryServer server, String db, String coll, String body)
        throws IOException, InterruptedException {
        String link = "_orrery/dbs/" + db + "/colls/" + coll + "/throughput";
        return send(server, body == null ? "GET" : "PUT", link, "_orrery", link,
            Map.of("x-ms-version", "2020-07-15"), body);
    }
}
