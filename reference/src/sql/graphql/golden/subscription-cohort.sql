select __local_0__.i, __local_1__.data
  from json_to_recordset($1::json) as __local_0__(i integer, session jsonb, variables json)
  cross join lateral (select json_build_object('music_artist', (select coalesce(json_agg(__local_2__.j order by __local_2__."__o0" asc nulls last), '[]'::json) from (
    select  json_build_object('__typename', 'music_artist', 'id', __local_3__."id", 'name', __local_3__."name") as j, __local_3__."id" as "__o0"
      from "music"."artist" as __local_3__
     where ((true) and (__local_3__."country" = (__local_0__.session ->> $2)::"pg_catalog"."text"))
     order by __local_3__."id" asc nulls last limit $3 ) as __local_2__))::text as data) as __local_1__;
-- values: ["[{\"i\":0,\"session\":{\"x-engine-country\":\"US\"},\"variables\":{}}]","x-engine-country",5]
