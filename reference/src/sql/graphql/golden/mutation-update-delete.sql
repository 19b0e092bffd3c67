-- update_music_album
with __local_0__ as (
    update "music"."album" as __local_1__ set "genre" = $1::"pg_catalog"."text", "year" = __local_1__."year" + $2::"pg_catalog"."int4"
     where (__local_1__."artist_id" = $3::"pg_catalog"."int4")
    returning __local_1__.*)
  select json_build_object('affected_rows', (select count(*) from __local_0__), 'returning', (select coalesce(json_agg(json_build_object('id', __local_2__."id", 'year', __local_2__."year")), '[]'::json) from __local_0__ as __local_2__ where (true)))::text as data, true as ok;
-- values: ["rock",1,2]

-- delete_music_track_by_pk
with __local_0__ as (
    delete from "music"."track" as __local_1__ where (__local_1__."id" = $1::"pg_catalog"."int4")
    returning __local_1__.*)
  select (select json_build_object('name', __local_2__."name") from __local_0__ as __local_2__ where (true) limit 1)::text as data, true as ok;
-- values: [202]
