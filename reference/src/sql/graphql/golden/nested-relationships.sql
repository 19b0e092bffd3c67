select json_build_object('music_artist', (select coalesce(json_agg(__local_0__.j), '[]'::json) from (
    select  json_build_object('name', __local_1__."name", 'albums', (select coalesce(json_agg(__local_2__.j order by __local_2__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('title', __local_3__."title", 'tracks_aggregate', (select json_build_object('aggregate', json_build_object('count', count(*))) from (
    select  __local_4__.*
      from "music"."track" as __local_4__
     where ((true) and (__local_3__."id" = __local_4__."album_id"))
       ) as __local_5__ group by ()), 'tracks', (select coalesce(json_agg(__local_6__.j order by __local_6__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('name', __local_7__."name", 'album', (select json_build_object('artist', (select json_build_object('name', __local_8__."name") from "music"."artist" as __local_8__ where (__local_9__."artist_id" = __local_8__."id") limit 1)) from "music"."album" as __local_9__ where (__local_7__."album_id" = __local_9__."id") limit 1)) as j, __local_7__."name" as "__o0"
      from "music"."track" as __local_7__
     where ((true) and (__local_3__."id" = __local_7__."album_id"))
     order by __local_7__."name" asc nulls last limit $1 ) as __local_6__)) as j, __local_3__."id" as "__o0"
      from "music"."album" as __local_3__
     where ((true) and (__local_1__."id" = __local_3__."artist_id"))
       ) as __local_2__)) as j
      from "music"."artist" as __local_1__
     where (__local_1__."country" = $2::"pg_catalog"."text")
       ) as __local_0__))::text as data;
-- values: [1,"NO"]
