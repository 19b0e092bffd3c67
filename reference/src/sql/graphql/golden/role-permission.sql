select json_build_object('music_artist', (select coalesce(json_agg(__local_0__.j order by __local_0__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('id', __local_1__."id", 'name', __local_1__."name", 'albums_aggregate', (select json_build_object('aggregate', json_build_object('count', count(*))) from (
    select  __local_2__.*
      from "music"."album" as __local_2__
     where ((true) and (true) and (__local_1__."id" = __local_2__."artist_id"))
       ) as __local_3__ group by ())) as j, __local_1__."id" as "__o0"
      from "music"."artist" as __local_1__
     where ((true) and (__local_1__."country" = $1::"pg_catalog"."text"))
     order by __local_1__."id" asc nulls last limit $2 ) as __local_0__))::text as data;
-- values: ["US",5]
