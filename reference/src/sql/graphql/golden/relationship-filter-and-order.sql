select json_build_object('music_album', (select coalesce(json_agg(__local_0__.j order by __local_0__."__o0" asc nulls last, __local_0__."__o1" desc nulls first), '[]'::json) from (
    select  json_build_object('title', __local_1__."title") as j, __local_1__."id" as "__o0", (select __local_2__."name" from "music"."artist" as __local_2__ where (__local_1__."artist_id" = __local_2__."id") limit 1) as "__o1"
      from "music"."album" as __local_1__
     where ((exists (select 1 from "music"."artist" as __local_3__ where ((__local_1__."artist_id" = __local_3__."id") and (__local_3__."formed" < $1::"pg_catalog"."int4")))) and (exists (select 1 from "music"."track" as __local_4__ where ((__local_1__."id" = __local_4__."album_id") and (__local_4__."milliseconds" > $2::"pg_catalog"."int4")))))
       ) as __local_0__))::text as data;
-- values: [2005,200000]
