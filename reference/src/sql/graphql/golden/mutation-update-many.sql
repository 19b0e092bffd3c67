-- update_music_artist_many (one element)
with __local_0__ as (
    update "music"."artist" as __local_1__ set "country" = $1::"pg_catalog"."text", "formed" = __local_1__."formed" + $2::"pg_catalog"."int4"
     where (__local_1__."id" = $3::"pg_catalog"."int4")
    returning __local_1__.*)
  select json_build_object('affected_rows', (select count(*) from __local_0__), 'returning', (select coalesce(json_agg(json_build_object('id', __local_2__."id", 'country', __local_2__."country")), '[]'::json) from __local_0__ as __local_2__ where (true)))::text as data, true as ok;
-- values: ["SE",1,1]

-- update_music_artist_many (one element)
with __local_0__ as (
    update "music"."artist" as __local_1__ set "tags" = __local_1__."tags" || $1::"pg_catalog"."jsonb"
     where (__local_1__."country" = $2::"pg_catalog"."text")
    returning __local_1__.*)
  select json_build_object('affected_rows', (select count(*) from __local_0__), 'returning', (select coalesce(json_agg(json_build_object('id', __local_2__."id", 'country', __local_2__."country")), '[]'::json) from __local_0__ as __local_2__ where (true)))::text as data, true as ok;
-- values: ["{\"moved\":true}","SE"]
