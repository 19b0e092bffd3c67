select json_build_object('music_album', (select coalesce(json_agg(__local_0__.j order by __local_0__."__o0" asc nulls last, __local_0__."__o1" asc nulls last, __local_0__."__o2" desc nulls first), '[]'::json) from (
    select distinct on (__local_1__."artist_id") json_build_object('artist_id', __local_1__."artist_id", 'title', __local_1__."title") as j, __local_1__."artist_id" as "__o0", __local_1__."artist_id" as "__o1", __local_1__."year" as "__o2"
      from "music"."album" as __local_1__
     where (true)
     order by __local_1__."artist_id" asc nulls last, __local_1__."artist_id" asc nulls last, __local_1__."year" desc nulls first  ) as __local_0__))::text as data;
-- values: []
