select __local_0__.i, __local_1__.data, __local_1__.cursor
  from json_to_recordset($1::json) as __local_0__(i integer, session jsonb, variables json, cursor text)
  cross join lateral (select json_build_object('music_artist_stream', coalesce(json_agg(__local_2__.j order by __local_2__.c desc), '[]'::json))::text as data, (array_agg(__local_2__.c order by __local_2__.c asc))[1]::text as cursor
  from (select json_build_object('id', __local_3__."id", 'name', __local_3__."name") as j, __local_3__."id" as c
          from "music"."artist" as __local_3__
         where ((__local_3__."name" <> (__local_0__.variables ->> $2)::"pg_catalog"."text") and (__local_3__."country" = (__local_0__.session ->> $3)::"pg_catalog"."text") and (__local_3__."id" < (__local_0__.cursor)::"pg_catalog"."int4"))
         order by __local_3__."id" desc limit $4) as __local_2__) as __local_1__;
-- values: ["[{\"i\":0,\"session\":{\"x-engine-country\":\"US\"},\"variables\":{\"name\":\"Nobody\"},\"cursor\":\"100\"}]","name","x-engine-country",5]
