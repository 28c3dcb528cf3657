import { writeFileSync } from "node:fs";

/**
 * New York's three kinds of list in small hand-made copies, for tests of the merge: the SLA's 2016 list of active
 * licenses, the 2019 eight-column extract that gives no address, and applications received. Each file is dated by
 * its newest date, as the import dates them. Each writer writes `path` and returns it.
 */
export const nyLists = {
  /** Three licenses, the newest first issued January 14, 2016: that list's as-of date. */
  active2016(path: string): string {
    const header =
      "License Serial Number,License Type Name,License Class Code,License Type Code,Agency Zone Office Name," +
      "Agency Zone Office Number,County Name (Licensee),Premises Name,Doing Business As (DBA)," +
      "Actual Address of Premises (Address1),Additional Address Information (Address2),City,State,Zip," +
      "License Certificate Number,License Original Issue Date,License Effective Date,License Expiration Date," +
      "Latitude,Longitude,Location";
    writeFileSync(
      path,
      [
        header,
        "1268007,ON-PREMISES LIQUOR,252,OP,New York City,1,NEW YORK,DRT GROUP LLC,DEAD RABBIT TAVERN,30 WATER STREET,,NEW YORK,NY,10004,846180,01/30/2013,01/01/2015,12/31/2016,,,",
        "1275754,ON-PREMISES LIQUOR,252,OP,New York City,1,QUEENS,TEMPO LIBERO BAR CORP,,88-08 ROOSEVELT AVE,1ST FLOOR,JACKSON HEIGHTS,NY,11372,810622,01/14/2016,03/25/2014,02/28/2016,,,",
        "1243517,ON-PREMISES LIQUOR,252,OP,New York City,1,NEW YORK,SILKSTONEONE LLC,THE FAT RADISH,17 ORCHARD ST,,NEW YORK,NY,10002,800001,10/04/2010,10/01/2014,09/30/2016,,,",
      ].join("\n"),
    );
    return path;
  },

  /** Two of the 2016 licenses and a new one, without addresses; the newest first issued July 30, 2019. */
  extract2019(path: string): string {
    writeFileSync(
      path,
      [
        "license_serial_number,license_class_code,premises_name,doing_business_as,license_certificate_number,license_original_issue_date,license_effective_date,license_expiration_date",
        "1268007,252,DRT GROUP LLC,DEAD RABBIT TAVERN,900286,01/30/2013,01/01/2019,12/31/2020",
        "1243517,252,SILKSTONEONE LLC,THE FAT RADISH,897767,10/04/2010,10/01/2018,09/30/2020",
        "1300001,252,NEW PLACE LLC,NEW PLACE,900001,07/30/2019,07/30/2019,07/31/2021",
      ].join("\n"),
    );
    return path;
  },

  /** An application for each number, received on `received` (MM/DD/YYYY), at 19 Orchard St. */
  applications(path: string, received: string, numbers: readonly string[]): string {
    const header =
      "License Serial Number,License Type Name,License Class Code,License Type Code,Agency Zone Office Number," +
      "Agency Zone Office Name,County Name (Licensee),Premises Name,Doing Business As (DBA)," +
      "Actual Address of Premises (Address1),Additional Address Information (Address2),City,State,ZIP," +
      "License Certificate Number,License Received Date";
    const row = (license: string) =>
      `${license},RESTAURANT WINE,260,RW,1,New York City,NEW YORK,SILKSTONEONE LLC,THE FAT RADISH,19 ORCHARD ST,,NEW YORK,NY,10002,,${received}`;
    writeFileSync(path, [header, ...numbers.map(row)].join("\n"));
    return path;
  },
};
