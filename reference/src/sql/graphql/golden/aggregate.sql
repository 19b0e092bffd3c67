select json_build_object('music_track_aggregate', (select json_build_object('aggregate', json_build_object('count', count(*), 'distinct_albums', count(distinct __local_0__."album_id"), 'sum', json_build_object('milliseconds', sum(__local_0__."milliseconds")), 'avg', json_build_object('milliseconds', avg(__local_0__."milliseconds")), 'max', json_build_object('name', max(__local_0__."name"))), 'nodes', coalesce(json_agg(json_build_object('id', __local_0__."id")), '[]'::json)) from (
    select  __local_1__.*
      from "music"."track" as __local_1__
     where (__local_1__."album_id" = any($1::"pg_catalog"."int4"[]))
       ) as __local_0__ group by ()))::text as data;
-- values: [[10,20]]
