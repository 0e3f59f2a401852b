/** Steam wallet amounts offered on /recharge/steam, in whole yuan. */
export const rechargeAmountsYuan = [50, 100, 200, 500] as const;
