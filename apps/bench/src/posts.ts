/** A published post an experiment reproduces: enough to find it again. */
export interface Citation {
  readonly title: string;
  readonly author: string;
  /** When it was published: `YYYY-MM-DD`, or `YYYY-MM` where only the month is known. */
  readonly date: string;
  /** Where it is (or was) published. */
  readonly url: string;
  /** The blog, and where it appeared first when the address is a later copy. */
  readonly site: string;
}

/** The names experiments cite the posts by. */
export type PostName =
  | 'joins'
  | 'mrr'
  | 'sysbench'
  | 'randomSelections'
  | 'googlePatch'
  | 'pluginPerformance'
  | 'fastIndexCreation';

/** The posts, one entry each. */
export const POSTS: Readonly<Record<PostName, Citation>> = {
  joins: {
    title: 'Join Optimizations in MySQL 5.6 and MariaDB 5.5',
    author: 'Ovais Tariq',
    date: '2012-04-04',
    url: 'https://www.percona.com/blog/2012/04/04/join-optimizations-in-mysql-5-6-and-mariadb-5-5/',
    site: 'MySQL Performance Blog (Percona)',
  },
  mrr: {
    title: 'Multi Range Read (MRR) in MySQL 5.6 and MariaDB 5.5',
    author: 'Ovais Tariq',
    date: '2012-03-21',
    url: 'https://www.percona.com/blog/2012/03/21/multi-range-read-mrr-in-mysql-5-6-and-mariadb-5-5/',
    site: 'MySQL Performance Blog (Percona)',
  },
  sysbench: {
    title: 'Sysbench OLTP: MySQL-5.6 vs. MariaDB-10.0',
    author: 'Axel Schwenke',
    date: '2013-02',
    url: 'https://mariadb.org/sysbench-oltp-mysql-5-6-vs-mariadb-10-0/',
    site: 'the MariaDB blog (first at blog.mariadb.org)',
  },
  randomSelections: {
    title: 'Only God can make random selections',
    author: 'Vasil Dimov',
    date: '2009-04-17',
    url: 'https://blogs.oracle.com/mysqlinnodb/entry/only_god_can_make_random',
    site: 'Transactions on InnoDB (first at blogs.innodb.com)',
  },
  googlePatch: {
    title: 'Software is Hard Sometimes …',
    author: 'Vasil Dimov',
    date: '2009-03-31',
    url: 'https://blogs.oracle.com/mysqlinnodb/entry/software_is_hard_sometimes',
    site: 'Transactions on InnoDB (first at blogs.innodb.com)',
  },
  pluginPerformance: {
    title: 'Plug In for Performance and Scalability',
    author: 'Calvin Sun',
    date: '2009-03-10',
    url: 'https://blogs.oracle.com/mysqlinnodb/tags/plugin',
    site: 'Transactions on InnoDB (first at blogs.innodb.com)',
  },
  fastIndexCreation: {
    title: 'Why ALTER TABLE runs faster on Percona Server 5.5 vs. MySQL 5.5',
    author: 'Peter Boros',
    date: '2014-05-15',
    url: 'https://www.percona.com/blog/2014/05/15/why-alter-table-runs-faster-on-percona-server/',
    site: 'MySQL Performance Blog (Percona)',
  },
};

/** A citation in one line: title, author, date, address. */
export function citation(c: Citation): string {
  return `“${c.title}”, ${c.author}, ${c.date}, ${c.site}: ${c.url}`;
}
