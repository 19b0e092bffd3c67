select __local_0__.i, __local_1__.data
  from json_to_recordset($1::json) as __local_0__(i integer, session jsonb, variables json)
  cross join lateral (select json_build_object('music_album', (select coalesce(json_agg(__local_2__.j order by __local_2__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('id', __local_3__."id", 'title', __local_3__."title") as j, __local_3__."id" as "__o0"
      from "music"."album" as __local_3__
     where ((__local_3__."title" = (__local_0__.variables ->> $2)::"pg_catalog"."text") or (__local_3__."id" <= (__local_0__.variables ->> $3)::"pg_catalog"."int4") or (__local_3__."id" = any(array(select json_array_elements_text((__local_0__.variables -> $4)))::"pg_catalog"."int4"[])))
     order by __local_3__."id" asc nulls last limit $5 ) as __local_2__))::text as data) as __local_1__;
-- values: ["[{\"i\":0,\"session\":{},\"variables\":{\"title\":\"Second Wind\",\"first\":10,\"ids\":[20,99]}}]","title","first","ids",3]
