/**
 * Where a sync fetches the District's licenses: ABCA's "Alcohol License Business Locations", layer 5 of DC GIS's
 * Business_Licensing_and_Grants FeatureServer, as ../shared/research/fetch-sources.md section 7 ("District of
 * Columbia ABCA") and section 2 ("Cross-cutting: ArcGIS REST") document it: editingInfo.lastEditDate, else
 * max(EDITED), says when it changed; pages of 2,000 ordered by OBJECTID, checked against returnCountOnly. The
 * adapter reads the features as its "on DC GIS" layout.
 */
import type { FeedDefinition } from "../../sync/feed-definition.ts";

export const dcLicenseLocations: FeedDefinition = {
  feed: "dc-abra/license-locations",
  adapter: "dc-abra",
  layout: "ABRA list on DC GIS (ArcGIS layer 5, Alcohol License Business Locations)",
  title: "Alcohol License Business Locations",
  source: {
    kind: "arcgis",
    layer:
      "https://maps2.dcgis.dc.gov/dcgis/rest/services/DCGIS_DATA/Business_Licensing_and_Grants_WebMercator/FeatureServer/5",
    order: "OBJECTID",
    pageSize: 2000,
    editField: "EDITED",
    name: "alcohol-license-business-locations.csv",
  },
};
