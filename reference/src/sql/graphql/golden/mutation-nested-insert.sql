-- insert_music_album_one (a step)
with __local_0__ as (
    insert into "music"."artist" as __local_1__ ("id", "name")
    values ($1::"pg_catalog"."int4", $2::"pg_catalog"."text")
    on conflict on constraint "artist_pkey" do update set "name" = excluded."name" where (true)
    returning __local_1__.*)
  select coalesce((select json_agg(__local_2__::text) from __local_0__ as __local_2__), '[]'::json)::text as data, true as ok;
-- values: [4,"Dune"]
-- refused when empty: {"message":"cannot proceed to insert object relation \"artist\" since insert to table \"music.artist\" affects zero rows","code":"not-supported"}

-- insert_music_album_one (a step)
with __local_0__ as (
    insert into "music"."album" as __local_1__ ("id", "title", "artist_id")
    values ($1::"pg_catalog"."int4", $2::"pg_catalog"."text", (($3::json #>> '{0,0}')::"music"."artist")."id")
    
    returning __local_1__.*)
  select coalesce((select json_agg(__local_2__::text) from __local_0__ as __local_2__), '[]'::json)::text as data, true as ok;
-- values: [30,"Third",null]
-- reads: [{"value":2,"from":[0]}]
-- refused when empty: {"message":"cannot proceed to insert array relations since insert to table \"music.album\" affects zero rows","code":"not-supported"}

-- insert_music_album_one (a step)
with __local_0__ as (
    insert into "music"."track" as __local_1__ ("id", "name", "milliseconds", "album_id")
    values ($1::"pg_catalog"."int4", $2::"pg_catalog"."text", $3::"pg_catalog"."int4", (($4::json #>> '{0,0}')::"music"."album")."id"), ($5::"pg_catalog"."int4", $6::"pg_catalog"."text", $7::"pg_catalog"."int4", (($4::json #>> '{0,0}')::"music"."album")."id")
    
    returning __local_1__.*)
  select coalesce((select json_agg(__local_2__::text) from __local_0__ as __local_2__), '[]'::json)::text as data, true as ok;
-- values: [300,"Intro",1000,null,301,"Outro",2000]
-- reads: [{"value":3,"from":[1]}]

-- insert_music_album_one
with __local_0__ as (select (__local_1__.r).* from (select (__local_2__.value #>> '{}')::"music"."album" as r from json_array_elements($1::json) with ordinality as __local_3__,
      json_array_elements(__local_3__.value) with ordinality as __local_2__ order by __local_3__.ordinality, __local_2__.ordinality) as __local_1__)
  select (select json_build_object('id', __local_4__."id", 'artist', (select json_build_object('name', __local_5__."name") from "music"."artist" as __local_5__ where (__local_4__."artist_id" = __local_5__."id") limit 1), 'tracks', (select coalesce(json_agg(__local_6__.j), '[]'::json) from (
    select  json_build_object('name', __local_7__."name") as j
      from "music"."track" as __local_7__
     where ((true) and (__local_4__."id" = __local_7__."album_id"))
       ) as __local_6__)) from __local_0__ as __local_4__ where (true) limit 1)::text as data, true as ok;
-- values: [null]
-- reads: [{"value":0,"from":[1]}]
