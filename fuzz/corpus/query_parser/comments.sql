-- leading comment
SELECT c.id -- trailing
FROM c
