select json_build_object('music_album', (select coalesce(json_agg(__local_0__.j order by __local_0__."__o0" desc nulls last, __local_0__."__o1" asc nulls last), '[]'::json) from (
    select  json_build_object('id', __local_1__."id", 'title', __local_1__."title", 'price', __local_1__."price") as j, __local_1__."price" as "__o0", __local_1__."id" as "__o1"
      from "music"."album" as __local_1__
     where ((__local_1__."title" ilike $1::"pg_catalog"."text") and (__local_1__."year" > $2::"pg_catalog"."int4"))
     order by __local_1__."price" desc nulls last, __local_1__."id" asc nulls last limit $3 offset $4) as __local_0__))::text as data;
-- values: ["%i%",1990,3,1]
