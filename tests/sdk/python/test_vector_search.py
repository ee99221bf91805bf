"""Vector search through the Python SDK: a container with a vectorEmbeddingPolicy and a
vector index, ranked by ORDER BY VectorDistance across physical partitions and within
one logical partition, compared with a brute-force ranking computed here; a bad policy
gets the service's 400."""

import math
import random
import uuid

import pytest
from azure.cosmos import PartitionKey, exceptions

DIMS = 12
RNG = random.Random(20261204)
ITEMS = [
    {"id": f"v{i}", "pk": f"p{i % 9}", "n": i, "e": [round(RNG.uniform(-1, 1), 3) for _ in range(DIMS)]}
    for i in range(160)
]
QUERY = [round(RNG.uniform(-1, 1), 3) for _ in range(DIMS)]

SCORES = {
    "cosine": lambda a, b: sum(x * y for x, y in zip(a, b))
    / (math.sqrt(sum(x * x for x in a)) * math.sqrt(sum(y * y for y in b))),
    "dotproduct": lambda a, b: sum(x * y for x, y in zip(a, b)),
    "euclidean": lambda a, b: math.sqrt(sum((x - y) ** 2 for x, y in zip(a, b))),
}


def brute_force(items, fn, k):
    scored = [(SCORES[fn](d["e"], QUERY), d["id"]) for d in items]
    scored.sort(key=lambda t: t[0], reverse=fn != "euclidean")
    return scored[:k]


def assert_ranking(rows, expected):
    assert len(rows) == len(expected)
    for row, (score, _) in zip(rows, expected):
        assert abs(row["s"] - score) <= 1e-9 * max(1.0, abs(score))
    assert sorted((f"{r['s']:.9f}", r["id"]) for r in rows) == sorted((f"{s:.9f}", i) for s, i in expected)


@pytest.fixture(scope="module")
def db(client):
    database = client.create_database(f"pyvec-{uuid.uuid4().hex[:10]}")
    yield database
    client.delete_database(database.id)


@pytest.mark.parametrize("fn", ["cosine", "euclidean", "dotproduct"])
def test_order_by_vector_distance_ranks_most_similar_first(db, fn):
    container = db.create_container(
        id=f"vec-{fn}",
        partition_key=PartitionKey(path="/pk"),
        offer_throughput=12000,  # two physical partitions
        vector_embedding_policy={
            "vectorEmbeddings": [{"path": "/e", "dataType": "float32", "distanceFunction": fn, "dimensions": DIMS}]
        },
        indexing_policy={"excludedPaths": [{"path": "/e/*"}], "vectorIndexes": [{"path": "/e", "type": "flat"}]},
    )
    for item in ITEMS:
        container.create_item(item)
    query = "SELECT TOP 10 c.id, VectorDistance(c.e, @v) AS s FROM c ORDER BY VectorDistance(c.e, @v)"
    params = [{"name": "@v", "value": QUERY}]
    rows = list(container.query_items(query, parameters=params, enable_cross_partition_query=True))
    assert_ranking(rows, brute_force(ITEMS, fn, 10))
    one = list(container.query_items(query, parameters=params, partition_key="p4"))
    assert_ranking(one, brute_force([d for d in ITEMS if d["pk"] == "p4"], fn, 10))


def test_bad_vector_policy_is_refused(db):
    with pytest.raises(exceptions.CosmosHttpResponseError) as e:
        db.create_container(
            id="vec-bad",
            partition_key=PartitionKey(path="/pk"),
            offer_throughput=400,
            vector_embedding_policy={
                "vectorEmbeddings": [{"path": "/e", "dataType": "float32", "distanceFunction": "cosine", "dimensions": 8}]
            },
            indexing_policy={"vectorIndexes": [{"path": "/other", "type": "flat"}]},
        )
    assert e.value.status_code == 400
    assert "The Vector Indexing Policy's path::/other not matching in Embedding's path." in str(e.value)
    with pytest.raises(exceptions.CosmosResourceNotFoundError):
        db.get_container_client("vec-bad").read()


# Full-text ranking: words that are their own stems and no stop words, so that BM25
# (Lucene's k1 = 1.2, b = 0.75) is computed here from whitespace-split words.
WORDS = ["swim", "run", "dog", "cat", "fish", "bird", "tree", "rock"]
TEXT_RNG = random.Random(7)
TEXT_DOCS = [
    {"id": f"t{i}", "pk": f"p{i % 5}", "text": " ".join(TEXT_RNG.choice(WORDS) for _ in range(TEXT_RNG.randint(2, 9)))}
    for i in range(60)
]


def bm25(terms):
    texts = [d["text"].split(" ") for d in TEXT_DOCS]
    n = len(texts)
    avg = sum(len(t) for t in texts) / n
    df = [sum(1 for t in texts if term in t) for term in terms]
    out = []
    for d, words in zip(TEXT_DOCS, texts):
        score = 0.0
        for term, f in zip(terms, df):
            tf = words.count(term)
            if tf:
                idf = math.log(1 + (n - f + 0.5) / (f + 0.5))
                score += idf * tf * 2.2 / (tf + 1.2 * (1 - 0.75 + 0.75 * len(words) / avg))
        out.append((score, d["id"]))
    return out


def test_order_by_rank_full_text_score(db):
    container = db.create_container(
        id="ranked-text",
        partition_key=PartitionKey(path="/pk"),
        offer_throughput=12000,
        full_text_policy={"defaultLanguage": "en-US", "fullTextPaths": [{"path": "/text", "language": "en-US"}]},
    )
    for d in TEXT_DOCS:
        container.create_item(d)
    expected = sorted((s for s in bm25(["dog", "tree"]) if s[0] > 0), key=lambda t: -t[0])[:8]
    rows = list(
        container.query_items(
            "SELECT TOP 8 c.id FROM c ORDER BY RANK FullTextScore(c.text, 'dog', 'tree')",
            enable_cross_partition_query=True,
        )
    )
    scores = dict((i, s) for s, i in bm25(["dog", "tree"]))
    assert len(rows) == len(expected)
    for row, (score, _) in zip(rows, expected):
        assert abs(scores[row["id"]] - score) < 1e-9
