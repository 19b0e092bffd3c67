select json_build_object('music_track', (select coalesce(json_agg(__local_0__.j order by __local_0__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('id', __local_1__."id", 'name', __local_1__."name") as j, __local_1__."id" as "__o0"
      from "music"."track" as __local_1__
     where ((__local_1__."id" = any($1::"pg_catalog"."int4"[])) or (__local_1__."name" like $2::"pg_catalog"."text"))
       ) as __local_0__))::text as data;
-- values: [[100,202],"B%"]
