select json_build_object('music_artist_by_pk', (select json_build_object('id', __local_0__."id", 'name', __local_0__."name") from "music"."artist" as __local_0__ where (__local_0__."id" = $1::"pg_catalog"."int4")))::text as data;
-- values: [1]
