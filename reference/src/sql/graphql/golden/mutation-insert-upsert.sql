-- insert_music_genre
with __local_0__ as (
    insert into "music"."genre" as __local_1__ ("value", "comment")
    values ($1::"pg_catalog"."text", $2::"pg_catalog"."text")
    on conflict on constraint "genre_pkey" do update set "comment" = excluded."comment" where (true)
    returning __local_1__.*)
  select json_build_object('affected_rows', (select count(*) from __local_0__), 'returning', (select coalesce(json_agg(json_build_object('value', __local_2__."value", 'comment', __local_2__."comment")), '[]'::json) from __local_0__ as __local_2__ where (true)))::text as data, true as ok;
-- values: ["folk","Quiet"]
